package dev.airlock.gateway.capture;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The rules of the sandbox in one place: the command line that runs one program in bubblewrap.
 * Pure: it reads nothing from the host; what it needs to know of the host comes in {@link Host}.
 *
 * <p>The run gets new user, PID, mount, IPC, UTS and cgroup namespaces (and a network namespace
 * with only a loopback unless the tool shares the host's network), no capabilities,
 * {@code no_new_privs}, no way to make further user namespaces, and uid and gid 65534 inside. Its
 * file system is a read-only empty root with the host's {@code /usr} (and the {@code /bin},
 * {@code /sbin} and {@code /lib*} that lead into it) read-only, a generated {@code passwd} and
 * {@code group}, the few files of {@code /etc} that programs need to resolve names, verify TLS
 * and find libraries, its own {@code /proc}, a minimal {@code /dev}, a private size-limited
 * {@code /tmp} and {@code /dev/shm}, the tool's extra paths and its working directory (read-write),
 * all at the same paths as on the host; {@code /proc} is read-only. Inside, {@code prlimit} sets the
 * resource limits, then executes the program. Before all of it, on the host, {@code choom} makes
 * the run's processes the kernel's first choice when memory runs out (which the read-only
 * {@code /proc} keeps them from undoing). When the gateway runs as root, {@code setpriv} then
 * becomes an unprivileged host user, because the kernel does not count processes of root against
 * {@code RLIMIT_NPROC}.
 */
final class BubblewrapCommand {

    /** The uid and gid of the sandbox's user inside the sandbox. */
    static final int SANDBOX_ID = 65534;

    /** The OOM killer's preference for a run's processes: the highest, so that a run goes before the gateway. */
    static final int OOM_SCORE_ADJ = 1000;

    /** The host name a run sees. */
    static final String HOSTNAME = "airlock";

    /**
     * Files and directories of the host's {@code /etc} a run sees read-only, where they exist:
     * name resolution, TLS trust, time zone, the dynamic linker's cache and Debian's alternatives.
     */
    static final List<String> ETC = List.of(
            "hosts",
            "resolv.conf",
            "nsswitch.conf",
            "host.conf",
            "gai.conf",
            "protocols",
            "services",
            "localtime",
            "ssl/certs",
            "ssl/openssl.cnf",
            "pki/tls/certs",
            "pki/ca-trust/extracted",
            "alternatives",
            "ld.so.cache");

    private BubblewrapCommand() {}

    /**
     * What the command line needs to know of the host.
     *
     * @param bwrap      the bubblewrap executable
     * @param setpriv    the setpriv executable when the gateway runs as root (it then drops to
     *                   {@code hostUid}/{@code hostGid} before bubblewrap starts), else null
     * @param hostUid    the unprivileged host user runs are started as, when {@code setpriv} is set
     * @param hostGid    the unprivileged host group runs are started as, when {@code setpriv} is set
     * @param prlimit    the prlimit executable, under {@code /usr} so that the sandbox sees it
     * @param choom      the choom executable, run on the host before bubblewrap (and {@code setpriv})
     * @param etc        a host directory holding the sandbox's generated {@code passwd} and {@code group}
     * @param rootLinks  top-level symbolic links of the host to recreate, such as {@code bin -> usr/bin}
     * @param rootDirs   top-level directories of the host to mount read-only, such as {@code lib64} where
     *                   it is not a link into {@code /usr}
     */
    record Host(
            Path bwrap,
            @Nullable Path setpriv,
            int hostUid,
            int hostGid,
            Path prlimit,
            Path choom,
            Path etc,
            SortedMap<String, String> rootLinks,
            List<String> rootDirs) {

        Host {
            rootLinks = new TreeMap<>(rootLinks);
            rootDirs = List.copyOf(rootDirs);
        }
    }

    /**
     * The descriptors a sandbox is started with, as numbered in bubblewrap's process: each mount
     * source opened without following links ({@link MountSource}), and the pipe bubblewrap reports
     * its status on.
     *
     * @param passwd     the generated {@code passwd}
     * @param group      the generated {@code group}
     * @param readOnly   the tool's read-only paths, in the policy's order
     * @param writable   the tool's writable paths, in the policy's order
     * @param workingDir the run's working directory
     * @param status     where bubblewrap writes its JSON status ({@code --json-status-fd}): the sandbox's
     *                   init pid, and the exit code only if the command was started
     * @param block      what the sandbox's init reads before it starts the command ({@code --block-fd}):
     *                   the sandbox is set up, and placed in its cgroup, before the run is let go
     */
    record Descriptors(
            int passwd,
            int group,
            List<Integer> readOnly,
            List<Integer> writable,
            int workingDir,
            int status,
            int block) {

        Descriptors {
            readOnly = List.copyOf(readOnly);
            writable = List.copyOf(writable);
        }
    }

    /**
     * The argument vector that runs {@code program} with {@code args} under {@code policy}, in
     * {@code workingDir}. Every path a run may write to, and every path that is not the host's
     * system, is mounted from a descriptor in {@code fds}, never by its name. The environment is
     * not on the command line (where every host user could read it in {@code /proc}): bubblewrap
     * passes its own, which the caller sets.
     *
     * @param cgroup whether the run has a cgroup of its own, which bounds its memory as a whole
     *               (otherwise each process is bounded by its address space)
     */
    static List<String> argv(
            Host host,
            SandboxPolicy policy,
            Descriptors fds,
            boolean cgroup,
            Path workingDir,
            String program,
            List<String> args) {
        List<String> argv = new ArrayList<>();
        // The preference is set on the host, before the sandbox: its processes inherit it, and with /proc
        // read-only inside (below) none of them can lower it again (the kernel lets a process lower its own down
        // to the host's floor, the gateway's value: raised by root, it was still lowered by the run on Linux 6.18).
        argv.addAll(List.of(host.choom().toString(), "-n", Integer.toString(OOM_SCORE_ADJ), "--"));
        if (host.setpriv() != null) {
            argv.addAll(List.of(
                    host.setpriv().toString(),
                    "--reuid=" + host.hostUid(),
                    "--regid=" + host.hostGid(),
                    "--clear-groups",
                    "--no-new-privs",
                    "--"));
        }
        argv.add(host.bwrap().toString());
        argv.addAll(List.of("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup"));
        if (!policy.network()) {
            argv.add("--unshare-net");
        }
        argv.addAll(List.of(
                "--disable-userns",
                "--die-with-parent",
                "--new-session",
                "--cap-drop",
                "ALL",
                "--uid",
                Integer.toString(SANDBOX_ID),
                "--gid",
                Integer.toString(SANDBOX_ID),
                "--hostname",
                HOSTNAME,
                "--json-status-fd",
                Integer.toString(fds.status()),
                "--block-fd",
                Integer.toString(fds.block())));
        argv.addAll(List.of("--ro-bind", "/usr", "/usr"));
        for (Map.Entry<String, String> link : host.rootLinks().entrySet()) {
            argv.addAll(List.of("--symlink", link.getValue(), "/" + link.getKey()));
        }
        for (String dir : host.rootDirs()) {
            argv.addAll(List.of("--ro-bind", "/" + dir, "/" + dir));
        }
        argv.addAll(List.of("--ro-bind-fd", Integer.toString(fds.passwd()), "/etc/passwd"));
        argv.addAll(List.of("--ro-bind-fd", Integer.toString(fds.group()), "/etc/group"));
        for (String name : ETC) {
            argv.addAll(List.of("--ro-bind-try", "/etc/" + name, "/etc/" + name));
        }
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev"));
        String tmpSize = Long.toString(policy.tmpSizeBytes());
        argv.addAll(List.of("--size", tmpSize, "--tmpfs", "/dev/shm", "--size", tmpSize, "--tmpfs", "/tmp"));
        for (int i = 0; i < policy.readOnlyPaths().size(); i++) {
            argv.addAll(List.of(
                    "--ro-bind-fd",
                    Integer.toString(fds.readOnly().get(i)),
                    policy.readOnlyPaths().get(i)));
        }
        for (int i = 0; i < policy.writablePaths().size(); i++) {
            argv.addAll(List.of(
                    "--bind-fd",
                    Integer.toString(fds.writable().get(i)),
                    policy.writablePaths().get(i)));
        }
        String dir = workingDir.toString();
        argv.addAll(List.of("--bind-fd", Integer.toString(fds.workingDir()), dir, "--chdir", dir));
        // /proc read-only: a run reads its processes' files but writes none (its OOM preference, /proc/<pid>/mem).
        argv.addAll(List.of("--remount-ro", "/proc", "--remount-ro", "/dev", "--remount-ro", "/"));
        argv.addAll(List.of("--", host.prlimit().toString(), "--nproc=" + policy.maxProcesses()));
        if (!cgroup) {
            // Without a cgroup of its own, each process is bounded by its address space instead of the run as a whole.
            argv.add("--as=" + policy.maxMemoryBytes());
        }
        argv.addAll(List.of(
                "--fsize=" + policy.maxFileSizeBytes(),
                "--nofile=" + policy.maxOpenFiles(),
                // 1, not 0: the kernel does not apply the limit to a core_pattern that pipes to a host handler,
                // except that 1 skips the handler; a core file needs at least a page, so none is written either.
                "--core=1",
                "--",
                program));
        argv.addAll(args);
        return List.copyOf(argv);
    }

    /**
     * Whether the host path {@code path} (absolute and normalized) is the same file inside the
     * sandbox: under {@code /usr}, a top-level link or directory, an extra path or the working
     * directory. Used to find the program on the host before the sandbox starts.
     */
    static boolean visible(Host host, SandboxPolicy policy, Path workingDir, Path path) {
        List<String> roots = new ArrayList<>();
        roots.add("/usr");
        host.rootLinks().keySet().forEach(name -> roots.add("/" + name));
        host.rootDirs().forEach(name -> roots.add("/" + name));
        roots.addAll(policy.readOnlyPaths());
        roots.addAll(policy.writablePaths());
        roots.add(workingDir.toString());
        return roots.stream().anyMatch(root -> path.startsWith(Path.of(root)));
    }
}
