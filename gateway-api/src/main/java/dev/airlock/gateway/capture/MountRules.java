package dev.airlock.gateway.capture;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The rule that no sandbox can change what another sandbox mounts: a run may replace anything
 * below a directory it can write (its writable paths and working directory) with a symbolic link,
 * so no mount source of any tool, of any tenant, may lie below such a directory; no writable mount
 * may contain or lie within what every sandbox mounts from the host by name (the system's
 * {@code /usr}, {@code /lib*}, the files of {@code /etc}), nor a file a secret is read from (its
 * own tool's included); and no mount at all may reach what belongs to Airlock itself (the
 * replicas' work areas with every run's working directory, the data directory), nor what each
 * sandbox has of its own ({@code /proc}, {@code /sys}, {@code /dev}), nor the host's runtime
 * directory whole ({@code /run}: its sockets). Checked at
 * start-up over the whole configuration, and again when a run starts from a recorded tool
 * definition that may differ from the configuration of today. Pure: it compares paths and reads
 * nothing from the host but the real path of the reserved directories; {@link MountSource}
 * refuses links at run time. Immutable and thread-safe.
 */
public final class MountRules {

    /** What every sandbox mounts from the host by name, read-only (BubblewrapCommand). */
    private static final List<String> SYSTEM = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");

    /**
     * What each sandbox has of its own and no mount may show from the host, even read-only, nor
     * anything within it: the host's processes (with the gateway's environment and command line),
     * kernel state and devices (the host's shared memory among them).
     */
    private static final List<String> SANDBOX_OWN = List.of("/proc", "/sys", "/dev");

    /**
     * What no mount may show whole: the host's runtime directory, full of sockets a read-only
     * mount does not keep a run from connecting to. A directory within it (a mounted secret's
     * {@code /run/secrets}) may be mounted on purpose.
     */
    private static final List<String> HOST_RUNTIME = List.of("/run", "/var/run");

    private final List<Mount> mounts;
    private final List<Reserved> reserved;

    private MountRules(List<Mount> mounts, List<Reserved> reserved) {
        this.mounts = List.copyOf(mounts);
        this.reserved = List.copyOf(reserved);
    }

    /**
     * A path some tool mounts.
     *
     * @param key      the configuration key that mounts it
     * @param owner    the tool's key, {@code airlock.tenants.<t>.tools.<name>}
     * @param path     the absolute, normalized host path
     * @param writable whether runs may write below it (a writable path or a working directory)
     */
    public record Mount(String key, String owner, Path path, boolean writable) {}

    /**
     * A path no mount may reach.
     *
     * @param key      the configuration key that names it
     * @param owner    the tool's key when it belongs to one tool (its secret file, which it may mount read-only), else null
     * @param path     the absolute host path, as real as it could be resolved
     * @param what     what it holds, for the message
     * @param readable whether read-only mounts may reach it (the system's files, which every sandbox reads anyway)
     * @param within   whether a mount may lie within it (only containing it, or being it, is refused)
     */
    public record Reserved(
            String key, @Nullable String owner, Path path, String what, boolean readable, boolean within) {

        /** A path no mount may contain, be or lie within (unless {@code readable} lets read-only mounts). */
        public Reserved(String key, @Nullable String owner, Path path, String what, boolean readable) {
            this(key, owner, path, what, readable, false);
        }
    }

    /**
     * The rules over {@code mounts}, with Airlock's work root and data directory, every file a
     * secret is read from (in {@code secretFiles}, by the configuration key that names it and the
     * tool that owns it) and the system's paths reserved.
     *
     * @throws InvalidConfigurationException naming the first mount that breaks a rule, and in its message the other key
     */
    public static MountRules of(List<Mount> mounts, Path workRoot, Path dataDir, List<Reserved> secretFiles) {
        List<Reserved> reserved = new ArrayList<>(secretFiles);
        reserved.add(
                new Reserved("airlock.sandbox.work-dir", null, real(workRoot), "every run's working directory", false));
        reserved.add(new Reserved("airlock.data-dir", null, real(dataDir), "the gateway's data", false));
        for (String system : SYSTEM) {
            reserved.add(new Reserved(
                    "(the sandbox's system)", null, Path.of(system), "mounted into every sandbox by name", true));
        }
        for (String own : SANDBOX_OWN) {
            reserved.add(new Reserved(
                    "(the sandbox's own " + own + ")",
                    null,
                    Path.of(own),
                    "each sandbox's own, never the host's",
                    false));
        }
        for (String runtime : HOST_RUNTIME) {
            reserved.add(new Reserved(
                    "(the host's " + runtime + ")",
                    null,
                    Path.of(runtime),
                    "the host's sockets, which a read-only mount does not close",
                    false,
                    true));
        }
        for (String etc : BubblewrapCommand.ETC) {
            reserved.add(new Reserved(
                    "(the sandbox's /etc)", null, Path.of("/etc", etc), "mounted into every sandbox by name", true));
        }
        Reserved[] shared = sharedSecret(reserved, reserved);
        if (shared != null) {
            throw new InvalidConfigurationException(shared[0].key(), sharedMessage(shared));
        }
        MountRules rules = new MountRules(mounts, reserved);
        for (Mount mount : mounts) {
            String problem = problem(mount, mounts, reserved);
            if (problem != null) {
                throw new InvalidConfigurationException(mount.key(), problem);
            }
        }
        return rules;
    }

    /**
     * Why the recorded mounts and secret files of a run (from a tool definition that may be of an
     * earlier configuration) cannot be used next to today's, or null if they can.
     */
    public @Nullable String problem(List<Mount> recorded, List<Reserved> recordedSecretFiles) {
        List<Mount> all = new ArrayList<>(mounts);
        all.addAll(recorded);
        List<Reserved> reservedNow = new ArrayList<>(reserved);
        reservedNow.addAll(recordedSecretFiles);
        // Today's secrets were held to each other at start-up: only the recorded ones are new (the rule is
        // symmetric between two secrets, so checking them against everything covers every new pair).
        Reserved[] shared = sharedSecret(recordedSecretFiles, reservedNow);
        if (shared != null) {
            return shared[0].key() + ": " + sharedMessage(shared);
        }
        // Likewise today's mounts were held to each other and to today's reservations at start-up: only the
        // pairs with a recorded mount or a recorded secret file are new, so a run's check does not grow with
        // the square of the configuration's mounts.
        for (Mount mount : recorded) {
            String problem = problem(mount, all, reservedNow);
            if (problem != null) {
                return mount.key() + ": " + problem;
            }
        }
        for (Mount mount : mounts) {
            String problem = problem(mount, recorded, recordedSecretFiles);
            if (problem != null) {
                return mount.key() + ": " + problem;
            }
        }
        return null;
    }

    /**
     * A tenant's {@code file:} secret among {@code candidates} that names a file it may not, with the
     * reservation of {@code reserved} that file belongs to; or null. A tool's or stdio server's own secret is handed to every run of it, and an
     * upstream's or a URL server's credential is sent to that upstream: either may share its file
     * only with another agent-side secret of its own tenant (a tool's, a server's, an upstream's),
     * never with another tenant's, the people's side's of its own tenant (an evidence signing key, a
     * channel's webhook), a setting of no tenant (the database's password) or a configuration file.
     * A credential alone may also name a config tree's file whose setting is none of the platform's
     * nor another tenant's, and that no such setting takes its value from (a {@code billing-token}
     * mounted beside the database's password); a tool's secret may not, as before.
     */
    private static Reserved @Nullable [] sharedSecret(List<Reserved> candidates, List<Reserved> reserved) {
        for (boolean owned : new boolean[] {true, false}) {
            for (Reserved own : candidates) {
                String tenant = tenantOf(own.owner() != null ? own.owner() : own.key());
                if (tenant == null
                        || !own.what().equals(SECRET_FILE)
                        || (owned
                                ? own.owner() == null
                                : !CREDENTIAL.matcher(own.key()).matches())) {
                    continue;
                }
                for (Reserved other : reserved) {
                    if (other != own
                            && !other.readable()
                            && other.path().equals(own.path())
                            && !sharable(other, tenant, !owned)) {
                        return new Reserved[] {own, other};
                    }
                }
            }
        }
        return null;
    }

    /** An upstream's or URL MCP server's credential setting (keys as {@code ConfiguredFiles} writes them). */
    private static final java.util.regex.Pattern CREDENTIAL = java.util.regex.Pattern.compile(
            "airlock\\.tenants\\.[^.]+\\.(upstreams|mcp-servers)\\.[^.]+\\.auth\\.[^.]+");

    /** A setting of a tenant's agent side: its tools', MCP servers' and upstreams'. */
    private static final java.util.regex.Pattern AGENT_SIDE =
            java.util.regex.Pattern.compile("airlock\\.tenants\\.[^.]+\\.(tools|mcp-servers|upstreams)\\..+");

    /** The namespaces of the platform's own settings: a configuration file holding one is the platform's. */
    private static final List<String> PLATFORM_SETTINGS =
            List.of("spring.", "server.", "management.", "logging.", "airlock.");

    /**
     * Whether a secret of {@code tenant}'s agent side may share its file with {@code other}: another
     * agent-side secret file of the same tenant; for a credential, also a config tree's file of a
     * setting that is neither the platform's nor another tenant's.
     */
    private static boolean sharable(Reserved other, String tenant, boolean credential) {
        String key = other.key();
        boolean sameTenant = tenant.equalsIgnoreCase(tenantOf(key));
        if (other.what().equals(SECRET_FILE)) {
            return sameTenant && AGENT_SIDE.matcher(key).matches();
        }
        if (credential && other.what().equals(CONFIGURATION_SETTING)) {
            String lower = key.toLowerCase(java.util.Locale.ROOT);
            return sameTenant
                    ? AGENT_SIDE.matcher(key).matches()
                    : PLATFORM_SETTINGS.stream().noneMatch(lower::startsWith);
        }
        return false;
    }

    private static String sharedMessage(Reserved[] shared) {
        return "reads its secret from " + shared[0].path() + ", which is " + shared[1].what() + " of " + shared[1].key()
                + ": a tenant's secret file must be its own";
    }

    /** The tenant of a key under {@code airlock.tenants.}, or null. */
    private static @Nullable String tenantOf(String key) {
        String prefix = "airlock.tenants.";
        if (!key.startsWith(prefix)) {
            return null;
        }
        int end = key.indexOf('.', prefix.length());
        return end < 0 ? null : key.substring(prefix.length(), end);
    }

    /** The mounts of one tool's definition, keyed under {@code owner}. */
    public static List<Mount> mountsOf(String owner, SandboxPolicy policy, @Nullable Path workingDir) {
        List<Mount> mounts = new ArrayList<>();
        for (int i = 0; i < policy.readOnlyPaths().size(); i++) {
            mounts.add(new Mount(
                    owner + ".sandbox.read-only-paths[" + i + "]",
                    owner,
                    Path.of(policy.readOnlyPaths().get(i)),
                    false));
        }
        for (int i = 0; i < policy.writablePaths().size(); i++) {
            mounts.add(new Mount(
                    owner + ".sandbox.writable-paths[" + i + "]",
                    owner,
                    Path.of(policy.writablePaths().get(i)),
                    true));
        }
        if (workingDir != null) {
            mounts.add(new Mount(owner + ".working-dir", owner, workingDir, true));
        }
        return mounts;
    }

    /** The files of one tool's {@code file:} secrets, reserved for it. */
    public static List<Reserved> secretFilesOf(String owner, Map<String, String> secrets) {
        List<Reserved> files = new ArrayList<>();
        secrets.forEach((variable, source) -> SecretReference.parse(source)
                .file()
                .ifPresent(file -> files.add(secretFile(owner + ".secrets." + variable, owner, file))));
        return files;
    }

    /**
     * A file a secret is read from ({@code key} names it as {@code file:}), reserved against every
     * mount but {@code owner}'s read-only ones (null: every mount).
     */
    public static Reserved secretFile(String key, @Nullable String owner, Path file) {
        return new Reserved(key, owner, real(file), SECRET_FILE, false);
    }

    private static final String SECRET_FILE = "the file a secret is read from";

    /** A file Airlock's configuration was read from ({@code key} among its settings), reserved against every mount. */
    public static Reserved configurationFile(String key, Path file) {
        return new Reserved(key, null, real(file), CONFIGURATION_FILE, false);
    }

    private static final String CONFIGURATION_FILE = "a file Airlock's configuration is read from";

    /**
     * A file that holds one setting of Airlock's configuration ({@code key}: a config tree's file),
     * reserved against every mount; a tenant's credential may name it unless the setting is the
     * platform's or another tenant's.
     */
    public static Reserved configurationSetting(String key, Path file) {
        return new Reserved(key, null, real(file), CONFIGURATION_SETTING, false);
    }

    private static final String CONFIGURATION_SETTING = "the file a setting of Airlock's configuration is read from";

    /** Why {@code mount} cannot be used next to the writable mounts {@code among} and the reservations {@code reserved}, or null. */
    private static @Nullable String problem(Mount mount, List<Mount> among, List<Reserved> reserved) {
        for (Mount writable : among) {
            if (writable.writable()
                    && !mount.path().equals(writable.path())
                    && mount.path().startsWith(writable.path())) {
                return mount.path() + " lies inside " + writable.path() + ", which runs may write to (" + writable.key()
                        + "): such a run could replace it with a link to anything on the host. Mount a path outside every"
                        + " writable path and working directory";
            }
        }
        for (Reserved own : reserved) {
            boolean overlaps = !own.within() && mount.path().startsWith(own.path())
                    || own.path().startsWith(mount.path());
            boolean allowed = !mount.writable()
                    && (own.readable() || own.owner() != null && own.owner().equals(mount.owner()));
            if (overlaps && !allowed) {
                return mount.path() + " would " + (mount.writable() ? "let runs change " : "show runs ") + own.path()
                        + " (" + own.what() + ", " + own.key()
                        + "); mount a path that neither contains it nor lies within it";
            }
        }
        return null;
    }

    /** The path with every link on the way resolved where it exists, so that a reserved directory cannot hide behind one. */
    private static Path real(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            Path parent = absolute.getParent();
            return parent == null || parent.equals(absolute)
                    ? absolute
                    : real(parent).resolve(absolute.getFileName());
        }
    }
}
