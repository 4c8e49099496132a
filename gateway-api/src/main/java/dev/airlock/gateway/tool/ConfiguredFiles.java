package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.MountRules;
import dev.airlock.gateway.capture.SecretReference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;

/**
 * The host files Airlock's own configuration comes from, which no sandbox may mount: every file a
 * {@code file:} reference under {@code airlock.} names (an upstream's credential, an MCP server's
 * header, a trust store's password, an evidence key, a channel's webhook, as well as tools'
 * secrets), and every file an {@code airlock.} setting was read from (a YAML file, a config tree's
 * files). A tool's or a stdio server's own {@code secrets} stay readable by it alone, as
 * {@link MountRules#secretFilesOf} has them.
 */
final class ConfiguredFiles {

    private static final ConfigurationPropertyName AIRLOCK = ConfigurationPropertyName.of("airlock");

    /** A secret of a tool or a stdio MCP server, which that tool or server may mount read-only. */
    private static final Pattern OWNED_SECRET =
            Pattern.compile("(airlock\\.tenants\\.[^.]+\\.(?:tools|mcp-servers)\\.[^.]+)\\.secrets\\.[^.]+");

    private ConfiguredFiles() {}

    /** The files of {@code environment}'s {@code airlock.} settings, reserved against every mount. */
    static List<MountRules.Reserved> of(Environment environment) {
        List<MountRules.Reserved> files = new ArrayList<>();
        Set<Path> sources = new HashSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream().filter(AIRLOCK::isAncestorOf).forEach(name -> {
                ConfigurationProperty property = iterable.getConfigurationProperty(name);
                if (property == null) {
                    return;
                }
                String key = name.toString();
                if (property.getValue() instanceof CharSequence raw) {
                    String text = environment.resolvePlaceholders(raw.toString());
                    if (text.startsWith("file:")) {
                        try {
                            SecretReference.parse(text)
                                    .file()
                                    .ifPresent(file -> files.add(MountRules.secretFile(key, ownerOf(key), file)));
                        } catch (IllegalArgumentException e) {
                            // Not a path a secret can be read from: the setting that reads it says so.
                        }
                    }
                }
                Path origin = fileOf(property.getOrigin());
                if (origin != null && sources.add(origin)) {
                    files.add(MountRules.configurationFile(key, origin));
                }
            });
        }
        return files;
    }

    /** The tool or stdio server whose own secret {@code key} is, or null. */
    private static @Nullable String ownerOf(String key) {
        Matcher owned = OWNED_SECRET.matcher(key);
        return owned.matches() ? owned.group(1) : null;
    }

    /** The host file a setting was read from, or null if it came from elsewhere (the environment, the jar). */
    private static @Nullable Path fileOf(@Nullable Origin origin) {
        Origin at = origin;
        for (int step = 0; at != null && step < 16; step++) {
            if (at instanceof PropertySourceOrigin source && source.getOrigin() != null) {
                at = source.getOrigin();
                continue;
            }
            if (at instanceof TextResourceOrigin text && text.getResource() != null) {
                Resource resource = text.getResource();
                if (resource.isFile()) {
                    try {
                        return resource.getFile().toPath();
                    } catch (IOException e) {
                        return null;
                    }
                }
            }
            at = at.getParent();
        }
        return null;
    }
}
