package dev.airlock.gateway.tool;

import dev.airlock.gateway.capture.MountRules;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;

/**
 * The host files the gateway's configuration comes from, which no sandbox may mount: every file a
 * {@code file:} value names, of any setting (an upstream's credential, an MCP server's header, a
 * trust store's password, an evidence key, a channel's webhook, tools' secrets), and every file a
 * setting was read from (a YAML file, a config tree's files such as the database password in
 * {@code /run/secrets/db/spring.datasource.password}). A tool's or a stdio server's own {@code secrets} stay readable by it alone, as
 * {@link MountRules#secretFilesOf} has them.
 */
final class ConfiguredFiles {

    private ConfiguredFiles() {}

    /** The files of {@code environment}'s settings, reserved against every mount. */
    static List<MountRules.Reserved> of(Environment environment) {
        List<MountRules.Reserved> files = new ArrayList<>();
        java.util.Map<Path, List<String>> sources = new java.util.LinkedHashMap<>();
        // Which settings take their value from which others (spring.datasource.password: ${db.password}).
        java.util.Map<String, List<String>> referencedBy = new java.util.HashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.stream().forEach(name -> {
                ConfigurationProperty property = iterable.getConfigurationProperty(name);
                if (property == null) {
                    return;
                }
                String key = original(name);
                if (property.getValue() instanceof CharSequence raw) {
                    java.util.regex.Matcher reference = PLACEHOLDER.matcher(raw);
                    while (reference.find()) {
                        referencedBy
                                .computeIfAbsent(
                                        reference.group(1).strip().toLowerCase(java.util.Locale.ROOT),
                                        r -> new ArrayList<>())
                                .add(key);
                    }
                    Path file = fileReference(environment.resolvePlaceholders(raw.toString()));
                    if (file != null) {
                        files.add(MountRules.secretFile(key, ownerOf(name), file));
                    }
                }
                Path origin = fileOf(property.getOrigin());
                if (origin != null) {
                    sources.computeIfAbsent(origin, o -> new ArrayList<>()).add(key);
                }
            });
        }
        // A file of one setting (a config tree's) is that setting's, and the setting's that take their value
        // from it; a file of several (a YAML file) is the configuration's.
        sources.forEach((origin, keys) -> {
            if (keys.size() == 1) {
                files.add(MountRules.configurationSetting(keys.getFirst(), origin));
                referencedBy
                        .getOrDefault(keys.getFirst().toLowerCase(java.util.Locale.ROOT), List.of())
                        .forEach(user -> files.add(MountRules.configurationSetting(user, origin)));
            } else {
                files.add(MountRules.configurationFile(keys.getFirst(), origin));
            }
        });
        return files;
    }

    /** A placeholder's name, {@code ${name}} or {@code ${name:default}}. */
    private static final java.util.regex.Pattern PLACEHOLDER = java.util.regex.Pattern.compile("\\$\\{([^}:]+)");

    /**
     * The setting's name as written (Spring's own form lower-cases it and drops {@code _}): as the
     * tools are keyed. Under {@code airlock.tenants.<t>} the words Airlock itself defines are written
     * as documented however they were spelt ({@code Airlock.Tenants.x.MCP_Servers.y.Auth.token} is
     * {@code airlock.tenants.x.mcp-servers.y.auth.token}), so that every rule reads one spelling.
     */
    private static String original(ConfigurationPropertyName name) {
        boolean tenant = name.getNumberOfElements() > 3
                && name.getElement(0, Form.UNIFORM).equals("airlock")
                && name.getElement(1, Form.UNIFORM).equals("tenants");
        String kind = tenant ? name.getElement(3, Form.UNIFORM) : "";
        boolean agentSide = kind.equals("tools") || kind.equals("mcpservers") || kind.equals("upstreams");
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            if (i > 0) {
                key.append('.');
            }
            if (tenant && i == 3 && kind.equals("mcpservers")) {
                key.append("mcp-servers");
            } else if (tenant && (i < 2 || i == 3 || i == 5 && agentSide)) {
                key.append(name.getElement(i, Form.UNIFORM));
            } else {
                key.append(name.getElement(i, Form.ORIGINAL));
            }
        }
        return key.toString();
    }

    /**
     * The file a {@code file:} value names, absolute and normalized however it is spelt (a doubled
     * slash, {@code /./}, {@code ..}: whatever reads it reaches the same file), or null.
     */
    private static @Nullable Path fileReference(String text) {
        if (!text.startsWith("file:")) {
            return null;
        }
        try {
            return Path.of(text.substring("file:".length())).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * The tool or stdio server whose own secret {@code name} is ({@code airlock.tenants.<t>.tools.<n>.secrets.<v>}
     * or {@code ….mcp-servers.<n>.secrets.<v>}), keyed as the tool compiler keys it (the names as written,
     * not Spring's lower-cased form without {@code _}), or null.
     */
    private static @Nullable String ownerOf(ConfigurationPropertyName name) {
        if (name.getNumberOfElements() != 7
                || !name.getElement(0, Form.UNIFORM).equals("airlock")
                || !name.getElement(1, Form.UNIFORM).equals("tenants")
                || !name.getElement(5, Form.UNIFORM).equals("secrets")) {
            return null;
        }
        String kind = name.getElement(3, Form.UNIFORM);
        if (!kind.equals("tools") && !kind.equals("mcpservers")) {
            return null;
        }
        return "airlock.tenants." + name.getElement(2, Form.ORIGINAL) + "."
                + (kind.equals("tools") ? "tools" : "mcp-servers") + "." + name.getElement(4, Form.ORIGINAL);
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
