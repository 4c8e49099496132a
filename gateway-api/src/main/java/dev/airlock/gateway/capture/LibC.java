package dev.airlock.gateway.capture;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import com.sun.jna.ptr.IntByReference;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The few C library calls the JDK does not offer and the sandbox needs: opening a path one
 * component at a time without following symbolic links ({@code O_PATH | O_NOFOLLOW}), and
 * starting bubblewrap with descriptors beyond 0, 1 and 2 ({@code posix_spawn} with file actions),
 * which the JDK's process API closes in every child. Linux with glibc 2.34 or newer, on x86-64 or
 * AArch64; anything else fails with {@link Unsupported} when first used, so the gateway refuses to
 * start a sandbox it cannot set up safely.
 */
final class LibC {

    /** The C library, or null where it cannot be loaded (the reason in {@link #UNSUPPORTED}). */
    private static final @Nullable Calls C;
    /** Why the calls are not available here, or null if they are. */
    private static final @Nullable String UNSUPPORTED;
    /** Open flags, which differ between architectures. */
    static final int O_RDONLY = 0;

    static final int O_WRONLY = 1;
    static final int O_RDWR = 2;
    static final int O_CLOEXEC = 0x80000;
    static final int O_PATH = 0x200000;
    static final int O_DIRECTORY;
    static final int O_NOFOLLOW;
    static final int F_DUPFD_CLOEXEC = 1030;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int STATX_BASIC_STATS = 0x7ff;
    static final int EINTR = 4;
    static final int ECHILD = 10;
    static final int SIGKILL = 9;
    /** {@code waitid}: by pid; for an ended child; leave it waitable. */
    private static final int P_PID = 1;

    private static final int WEXITED = 4;
    private static final int WNOWAIT = 0x01000000;
    /** {@code siginfo_t}: 128 bytes; {@code si_code} at 8 and {@code si_status} at 24 on 64-bit Linux. */
    private static final int SIGINFO_SIZE = 128;

    private static final int SI_CODE = 8;
    private static final int SI_STATUS = 24;
    private static final int CLD_EXITED = 1;
    /** {@code POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK}: a child starts with default signal handling, nothing blocked. */
    private static final short SPAWN_FLAGS = 0x04 | 0x08;
    /** Larger than glibc's {@code posix_spawn_file_actions_t} (80 bytes), {@code posix_spawnattr_t} (336) and {@code sigset_t} (128). */
    private static final int OPAQUE_SIZE = 1024;

    /** The encoding of every string handed to the C library. */
    private static final String UTF_8 = "UTF-8";

    static {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        int directory = 0;
        int nofollow = 0;
        String unsupported = null;
        if (!Platform.isLinux()) {
            unsupported = "the sandbox needs Linux";
        } else if (arch.equals("amd64") || arch.equals("x86_64")) {
            directory = 0x10000;
            nofollow = 0x20000;
        } else if (arch.equals("aarch64") || arch.equals("arm64")) {
            directory = 0x4000;
            nofollow = 0x8000;
        } else {
            unsupported = "the sandbox supports x86-64 and AArch64, not " + arch;
        }
        Calls calls = null;
        if (unsupported == null) {
            try {
                // Strings (paths, argv, environment) are UTF-8 whatever the host's locale: under
                // LANG=C JNA would write "é" as "?", and a run would start with other arguments
                // than the ones people approved.
                calls = Native.load(
                        "c", Calls.class, java.util.Map.of(com.sun.jna.Library.OPTION_STRING_ENCODING, UTF_8));
                NativeLibrary library = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
                for (String symbol : new String[] {
                    "posix_spawn_file_actions_addclosefrom_np", "posix_spawn_file_actions_addchdir_np", "statx"
                }) {
                    library.getFunction(symbol);
                }
            } catch (UnsatisfiedLinkError e) {
                unsupported = "the C library lacks a call the sandbox needs (glibc 2.34 or newer): " + e.getMessage();
                calls = null;
            } catch (RuntimeException e) {
                unsupported = "JNA cannot load the C library: " + e.getMessage();
                calls = null;
            }
        }
        O_DIRECTORY = directory;
        O_NOFOLLOW = nofollow;
        C = calls;
        UNSUPPORTED = unsupported;
    }

    private LibC() {}

    /** Thrown when the calls cannot be used on this system; the message says why. */
    static final class Unsupported extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unsupported(String message) {
            super(message);
        }
    }

    /** A failed call: the name of the call and the C error number. */
    static final class Failure extends Exception {

        private static final long serialVersionUID = 1L;
        private final int errno;

        Failure(String call, int errno) {
            super(call + ": " + describe(errno), null, false, false);
            this.errno = errno;
        }

        int errno() {
            return errno;
        }
    }

    /** Fails with the reason if the calls cannot be used here. */
    static void requireSupported() {
        if (UNSUPPORTED != null) {
            throw new Unsupported(UNSUPPORTED);
        }
    }

    private static Calls c() {
        requireSupported();
        return Objects.requireNonNull(C, "the C library is loaded wherever the calls are supported");
    }

    static int openat(int dirfd, String name, int flags) throws Failure {
        try {
            return c().openat(dirfd, name, flags);
        } catch (LastErrorException e) {
            throw new Failure("openat " + name, e.getErrorCode());
        }
    }

    static int open(String path, int flags) throws Failure {
        try {
            return c().open(path, flags);
        } catch (LastErrorException e) {
            throw new Failure("open " + path, e.getErrorCode());
        }
    }

    /** Closes {@code fd}, ignoring errors (a descriptor is closed once, and nothing follows from failing to). */
    static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try {
            c().close(fd);
        } catch (LastErrorException e) {
            // EBADF or EINTR: the descriptor is gone either way on Linux.
        }
    }

    /** A new close-on-exec pipe: read end first. */
    static int[] pipe() throws Failure {
        int[] fds = new int[2];
        try {
            c().pipe2(fds, O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new Failure("pipe2", e.getErrorCode());
        }
        return fds;
    }

    /** A close-on-exec copy of {@code fd} numbered at least {@code lowest}. */
    static int duplicateAbove(int fd, int lowest) throws Failure {
        try {
            return c().fcntl(fd, F_DUPFD_CLOEXEC, lowest);
        } catch (LastErrorException e) {
            throw new Failure("fcntl F_DUPFD_CLOEXEC", e.getErrorCode());
        }
    }

    /**
     * What {@code statx} says of the object {@code fd} refers to (itself, even when it is a
     * symbolic link opened with {@code O_PATH | O_NOFOLLOW}).
     */
    static Stat stat(int fd) throws Failure {
        Memory buffer = new Memory(256);
        buffer.clear();
        try {
            c().statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, buffer);
        } catch (LastErrorException e) {
            throw new Failure("statx", e.getErrorCode());
        }
        return new Stat(
                buffer.getShort(28) & 0xffff,
                buffer.getInt(20),
                buffer.getLong(32),
                ((long) buffer.getInt(136) << 32) | (buffer.getInt(140) & 0xffffffffL));
    }

    /**
     * What {@code statx} reports of an object.
     *
     * @param mode  file type and permission bits
     * @param uid   the owner
     * @param inode the inode number
     * @param dev   the device, major in the upper half
     */
    record Stat(int mode, int uid, long inode, long dev) {

        private static final int S_IFMT = 0xf000;

        boolean directory() {
            return (mode & S_IFMT) == 0x4000;
        }

        boolean symbolicLink() {
            return (mode & S_IFMT) == 0xa000;
        }

        boolean regularFile() {
            return (mode & S_IFMT) == 0x8000;
        }
    }

    /**
     * Starts {@code path} with {@code argv} and {@code envp}, the child's descriptors being exactly
     * {@code descriptors[i]} as {@code i} (a negative entry opens {@code /dev/null} for reading
     * there), every other descriptor closed, default signal handling, nothing blocked, in the
     * directory {@code /}. Returns its pid. The caller's descriptors stay open.
     */
    static int spawn(String path, String[] argv, String[] envp, int[] descriptors) throws Failure {
        // Copies numbered above every target, so that no dup2 overwrites a source still to be copied.
        int[] sources = new int[descriptors.length];
        java.util.Arrays.fill(sources, -1);
        try {
            for (int i = 0; i < descriptors.length; i++) {
                if (descriptors[i] >= 0) {
                    sources[i] = duplicateAbove(descriptors[i], descriptors.length);
                }
            }
            return spawnCopies(path, argv, envp, sources);
        } finally {
            for (int source : sources) {
                close(source);
            }
        }
    }

    private static int spawnCopies(String path, String[] argv, String[] envp, int[] descriptors) throws Failure {
        Calls c = c();
        Memory actions = opaque();
        Memory attributes = opaque();
        Memory signals = opaque();
        check("posix_spawn_file_actions_init", c.posix_spawn_file_actions_init(actions));
        try {
            check("posix_spawnattr_init", c.posix_spawnattr_init(attributes));
            try {
                for (int target = 0; target < descriptors.length; target++) {
                    if (descriptors[target] < 0) {
                        check(
                                "posix_spawn_file_actions_addopen",
                                c.posix_spawn_file_actions_addopen(actions, target, "/dev/null", O_RDONLY, 0));
                    } else {
                        check(
                                "posix_spawn_file_actions_adddup2",
                                c.posix_spawn_file_actions_adddup2(actions, descriptors[target], target));
                    }
                }
                check(
                        "posix_spawn_file_actions_addclosefrom_np",
                        c.posix_spawn_file_actions_addclosefrom_np(actions, descriptors.length));
                check("posix_spawn_file_actions_addchdir_np", c.posix_spawn_file_actions_addchdir_np(actions, "/"));
                c.sigemptyset(signals);
                check("posix_spawnattr_setsigmask", c.posix_spawnattr_setsigmask(attributes, signals));
                c.sigfillset(signals);
                check("posix_spawnattr_setsigdefault", c.posix_spawnattr_setsigdefault(attributes, signals));
                check("posix_spawnattr_setflags", c.posix_spawnattr_setflags(attributes, SPAWN_FLAGS));
                IntByReference pid = new IntByReference();
                check(
                        "posix_spawn " + path,
                        c.posix_spawn(
                                pid,
                                path,
                                actions,
                                attributes,
                                new StringArray(argv, UTF_8),
                                new StringArray(envp, UTF_8)));
                return pid.getValue();
            } finally {
                c.posix_spawnattr_destroy(attributes);
            }
        } finally {
            c.posix_spawn_file_actions_destroy(actions);
        }
    }

    /**
     * Waits for the child {@code pid} to end without reaping it ({@code waitid} with
     * {@code WNOWAIT}), so that its pid stays its own until {@link #reap}; returns the code it exited
     * with, or 128 plus the signal that ended it. Blocks the calling (platform) thread.
     */
    static int awaitExit(int pid) throws Failure {
        Memory info = new Memory(SIGINFO_SIZE);
        while (true) {
            try {
                info.clear();
                c().waitid(P_PID, pid, info, WEXITED | WNOWAIT);
                int code = info.getInt(SI_CODE);
                int status = info.getInt(SI_STATUS);
                return code == CLD_EXITED ? status & 0xff : 0x80 + status;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINTR) {
                    throw new Failure("waitid", e.getErrorCode());
                }
            }
        }
    }

    /** Reaps the child {@code pid}, which has ended. */
    static void reap(int pid) throws Failure {
        IntByReference status = new IntByReference();
        while (true) {
            try {
                c().waitpid(pid, status, 0);
                return;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINTR) {
                    throw new Failure("waitpid", e.getErrorCode());
                }
            }
        }
    }

    /** Sends {@code signal} to {@code pid}; false if there is no such process. */
    static boolean kill(int pid, int signal) {
        try {
            c().kill(pid, signal);
            return true;
        } catch (LastErrorException e) {
            return false;
        }
    }

    private static Memory opaque() {
        Memory memory = new Memory(OPAQUE_SIZE);
        memory.clear();
        return memory;
    }

    private static void check(String call, int result) throws Failure {
        if (result != 0) {
            throw new Failure(call, result);
        }
    }

    private static String describe(int errno) {
        return switch (errno) {
            case 1 -> "operation not permitted";
            case 2 -> "no such file or directory";
            case 13 -> "permission denied";
            case 20 -> "not a directory";
            case 40 -> "too many levels of symbolic links";
            default -> "error " + errno;
        };
    }

    /** The C library as JNA maps it. */
    @SuppressWarnings({"checkstyle:MethodName", "unused"})
    interface Calls extends Library {

        int open(String path, int flags) throws LastErrorException;

        int openat(int dirfd, String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int pipe2(int[] fds, int flags) throws LastErrorException;

        int fcntl(int fd, int cmd, int arg) throws LastErrorException;

        int statx(int dirfd, String path, int flags, int mask, Pointer buffer) throws LastErrorException;

        int waitpid(int pid, IntByReference status, int options) throws LastErrorException;

        int waitid(int idtype, int id, Pointer info, int options) throws LastErrorException;

        int kill(int pid, int signal) throws LastErrorException;

        int posix_spawn(
                IntByReference pid,
                String path,
                Pointer fileActions,
                Pointer attributes,
                StringArray argv,
                StringArray envp);

        int posix_spawn_file_actions_init(Pointer actions);

        int posix_spawn_file_actions_destroy(Pointer actions);

        int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int target);

        int posix_spawn_file_actions_addopen(Pointer actions, int fd, String path, int flags, int mode);

        int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int lowest);

        int posix_spawn_file_actions_addchdir_np(Pointer actions, String path);

        int posix_spawnattr_init(Pointer attributes);

        int posix_spawnattr_destroy(Pointer attributes);

        int posix_spawnattr_setflags(Pointer attributes, short flags);

        int posix_spawnattr_setsigmask(Pointer attributes, Pointer signals);

        int posix_spawnattr_setsigdefault(Pointer attributes, Pointer signals);

        int sigemptyset(Pointer signals);

        int sigfillset(Pointer signals);
    }
}
