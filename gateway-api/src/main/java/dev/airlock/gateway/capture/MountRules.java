package dev.airlock.gateway.capture;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.nio.file.Path;
import java.util.List;

/**
 * The start-up rule that no sandbox can change what another sandbox mounts: a run may replace
 * anything below a directory it can write (its writable paths and working directory) with a
 * symbolic link, so no mount source of any tool, of any tenant, may lie below such a directory;
 * and no mount may reach what belongs to Airlock itself (the replicas' work areas with every run's
 * working directory, the data directory, the files secrets are read from). Pure: it compares
 * configured paths and reads nothing from the host; {@link MountSource} refuses links at run time.
 */
public final class MountRules {

    private MountRules() {
    }

    /**
     * A path some tool mounts.
     *
     * @param key      the configuration key that mounts it
     * @param owner    the tool's key, {@code airlock.tenants.<t>.tools.<name>}
     * @param path     the absolute, normalized host path
     * @param writable whether runs may write below it (a writable path or a working directory)
     */
    public record Mount(String key, String owner, Path path, boolean writable) {
    }

    /**
     * A path of Airlock's own that no mount may contain or lie within.
     *
     * @param key   the configuration key that names it
     * @param owner the tool's key when it belongs to one tool (its secret file, which it may mount), else null
     * @param path  the absolute, normalized host path
     * @param what  what it holds, for the message
     */
    public record Reserved(String key, String owner, Path path, String what) {
    }

    /**
     * Refuses the first mount that lies strictly below a writable mount (of the same tool or
     * another), or that contains, equals or lies within a reserved path, naming both keys.
     *
     * @throws InvalidConfigurationException naming the mount's key and, in its message, the other key
     */
    public static void check(List<Mount> mounts, List<Reserved> reserved) {
        for (Mount mount : mounts) {
            for (Mount writable : mounts) {
                if (writable.writable() && !mount.path().equals(writable.path()) && mount.path().startsWith(writable.path())) {
                    throw new InvalidConfigurationException(mount.key(), mount.path() + " lies inside " + writable.path()
                            + ", which runs may write to (" + writable.key() + "): such a run could replace it with a "
                            + "link to anything on the host. Mount a path outside every writable path and working directory");
                }
            }
            for (Reserved own : reserved) {
                if (own.owner() != null && own.owner().equals(mount.owner())) {
                    continue;
                }
                if (mount.path().startsWith(own.path()) || own.path().startsWith(mount.path())) {
                    throw new InvalidConfigurationException(mount.key(), mount.path() + " would show runs "
                            + own.path() + " (" + own.what() + ", " + own.key() + "); mount a path that neither contains "
                            + "it nor lies within it");
                }
            }
        }
    }
}
