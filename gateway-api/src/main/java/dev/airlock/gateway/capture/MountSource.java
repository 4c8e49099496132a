package dev.airlock.gateway.capture;

import java.nio.file.Path;

/**
 * A host path a sandbox mounts, opened one component at a time from {@code /} without following
 * a symbolic link anywhere ({@code O_PATH | O_NOFOLLOW} per component), and held open until
 * bubblewrap has mounted it by descriptor ({@code --bind-fd}). What is mounted is therefore what
 * was checked: replacing a directory on the path by a link, before or during the start, fails the
 * run instead of mounting whatever the link points to, and bubblewrap compares the mounted object
 * with the descriptor once more. Not thread-safe; closed once.
 */
final class MountSource implements AutoCloseable {

    private final String path;
    private int fd;

    private MountSource(String path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /** What the opened path must be. */
    enum Kind {
        /** A directory (a working directory). */
        DIRECTORY,
        /** A directory or any other file except a symbolic link (a read-only or writable path). */
        ANY
    }

    /**
     * Opens {@code path} (absolute and normalized).
     *
     * @param strangerUid a host user that must own no directory on the way to it (the sandbox's
     *                    own host user, so that nothing a run may have made is mounted elsewhere),
     *                    or -1 when there is no such user
     * @throws Sandbox.SpawnRefused if a component is missing, is a symbolic link, is not a
     *                              directory, or is owned by {@code strangerUid}
     */
    static MountSource open(String path, Kind kind, int strangerUid) throws Sandbox.SpawnRefused {
        Path target = Path.of(path);
        if (!target.isAbsolute() || !target.normalize().equals(target)) {
            throw new Sandbox.SpawnRefused("sandbox path " + path + " is not an absolute, normalized path");
        }
        int dir = -1;
        try {
            dir = LibC.open("/", LibC.O_PATH | LibC.O_DIRECTORY | LibC.O_CLOEXEC);
            Path walked = Path.of("/");
            for (int i = 0; i < target.getNameCount(); i++) {
                String name = target.getName(i).toString();
                walked = walked.resolve(name);
                int next;
                try {
                    next = LibC.openat(dir, name, LibC.O_PATH | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
                } catch (LibC.Failure e) {
                    throw refused(
                            path,
                            walked,
                            e.errno() == 2 ? "does not exist" : "cannot be opened (" + e.getMessage() + ")");
                }
                LibC.close(dir);
                dir = next;
                LibC.Stat stat = LibC.stat(dir);
                boolean last = i == target.getNameCount() - 1;
                if (stat.symbolicLink()) {
                    throw refused(
                            path,
                            walked,
                            "is a symbolic link; sandboxes never mount through links: configure the real path");
                }
                if ((!last || kind == Kind.DIRECTORY) && !stat.directory()) {
                    throw refused(path, walked, "is not a directory");
                }
                if (!last && strangerUid >= 0 && stat.uid() == strangerUid) {
                    throw refused(
                            path,
                            walked,
                            "is owned by the sandbox's host user " + strangerUid
                                    + ", which could replace what lies below it");
                }
            }
            MountSource source = new MountSource(path, dir);
            dir = -1;
            return source;
        } catch (LibC.Failure e) {
            throw new Sandbox.SpawnRefused("sandbox path " + path + " cannot be opened: " + e.getMessage());
        } finally {
            LibC.close(dir);
        }
    }

    /** The path as configured, which is also where the sandbox sees it. */
    String path() {
        return path;
    }

    /** The descriptor to hand bubblewrap. */
    int fd() {
        return fd;
    }

    @Override
    public void close() {
        LibC.close(fd);
        fd = -1;
    }

    private static Sandbox.SpawnRefused refused(String path, Path component, String why) {
        String where =
                component.toString().equals(path) ? "sandbox path " + path : "sandbox path " + path + ": " + component;
        return new Sandbox.SpawnRefused(where + " " + why);
    }
}
