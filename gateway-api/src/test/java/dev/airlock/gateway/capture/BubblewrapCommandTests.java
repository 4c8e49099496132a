package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sandbox's rules as exact command lines: what a run gets, for a given host and tool. Each
 * expected line below is one group of arguments, in order.
 */
class BubblewrapCommandTests {

    private static final TreeMap<String, String> MERGED_USR = new TreeMap<>(
            java.util.Map.of("bin", "usr/bin", "lib", "usr/lib", "lib64", "usr/lib64", "sbin", "usr/sbin"));

    private static final BubblewrapCommand.Host ROOT_GATEWAY = new BubblewrapCommand.Host(
            Path.of("/usr/bin/bwrap"),
            Path.of("/usr/bin/setpriv"),
            65534,
            65534,
            Path.of("/usr/bin/prlimit"),
            Path.of("/usr/bin/choom"),
            Path.of("/tmp/airlock-sandbox-etc-1"),
            MERGED_USR,
            List.of());

    private static final BubblewrapCommand.Host USER_GATEWAY = new BubblewrapCommand.Host(
            Path.of("/opt/bwrap/bin/bwrap"),
            null,
            0,
            0,
            Path.of("/usr/bin/prlimit"),
            Path.of("/usr/bin/choom"),
            Path.of("/tmp/etc"),
            new TreeMap<>(java.util.Map.of("bin", "usr/bin")),
            List.of("lib", "lib64", "sbin"));

    /** Descriptors as a prepared sandbox numbers them: passwd, group, read-only paths, writable paths, working dir, status, block. */
    private static BubblewrapCommand.Descriptors descriptors(SandboxPolicy policy) {
        int ro = policy.readOnlyPaths().size();
        int rw = policy.writablePaths().size();
        return new BubblewrapCommand.Descriptors(
                3,
                4,
                java.util.stream.IntStream.range(5, 5 + ro).boxed().toList(),
                java.util.stream.IntStream.range(5 + ro, 5 + ro + rw).boxed().toList(),
                5 + ro + rw,
                6 + ro + rw,
                7 + ro + rw);
    }

    private static String command(
            BubblewrapCommand.Host host, SandboxPolicy policy, String workingDir, String program, String... args) {
        return String.join(
                " ",
                BubblewrapCommand.argv(
                        host, policy, descriptors(policy), false, Path.of(workingDir), program, List.of(args)));
    }

    private static String lines(String block) {
        return String.join(" ", block.strip().split("\\s*\\n\\s*"));
    }

    @Test
    void aGatewayRunningAsRootStartsTheDefaultSandboxAsAnUnprivilegedHostUser() {
        assertThat(command(
                        ROOT_GATEWAY, SandboxPolicy.DEFAULTS, "/tmp/airlock-run-7", "/usr/bin/git", "log", "-n", "5"))
                .isEqualTo(lines("""
                        /usr/bin/choom -n 1000 --
                        /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs --
                        /usr/bin/bwrap
                        --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup --unshare-net
                        --disable-userns --die-with-parent --new-session --cap-drop ALL
                        --uid 65534 --gid 65534 --hostname airlock
                        --json-status-fd 6 --block-fd 7
                        --ro-bind /usr /usr
                        --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin
                        --ro-bind-fd 3 /etc/passwd
                        --ro-bind-fd 4 /etc/group
                        --ro-bind-try /etc/hosts /etc/hosts
                        --ro-bind-try /etc/resolv.conf /etc/resolv.conf
                        --ro-bind-try /etc/nsswitch.conf /etc/nsswitch.conf
                        --ro-bind-try /etc/host.conf /etc/host.conf
                        --ro-bind-try /etc/gai.conf /etc/gai.conf
                        --ro-bind-try /etc/protocols /etc/protocols
                        --ro-bind-try /etc/services /etc/services
                        --ro-bind-try /etc/localtime /etc/localtime
                        --ro-bind-try /etc/ssl/certs /etc/ssl/certs
                        --ro-bind-try /etc/ssl/openssl.cnf /etc/ssl/openssl.cnf
                        --ro-bind-try /etc/pki/tls/certs /etc/pki/tls/certs
                        --ro-bind-try /etc/pki/ca-trust/extracted /etc/pki/ca-trust/extracted
                        --ro-bind-try /etc/alternatives /etc/alternatives
                        --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache
                        --proc /proc --dev /dev
                        --size 268435456 --tmpfs /dev/shm --size 268435456 --tmpfs /tmp
                        --bind-fd 5 /tmp/airlock-run-7 --chdir /tmp/airlock-run-7
                        --remount-ro /proc --remount-ro /dev --remount-ro /
                        -- /usr/bin/prlimit --nproc=256 --as=1073741824 --fsize=1073741824 --nofile=1024 --core=1
                        -- /usr/bin/git log -n 5
                        """));
    }

    @Test
    void aToolsNetworkPathsAndLimitsAndAHostWithoutMergedUsr() {
        SandboxPolicy policy = new SandboxPolicy(
                true,
                List.of("/srv/reference", "/opt/tools"),
                List.of("/srv/cache"),
                16,
                64L << 20,
                1L << 20,
                64,
                8L << 20);
        String command = command(USER_GATEWAY, policy, "/srv/repos", "/opt/tools/bin/lint", "--strict");
        assertThat(command)
                .startsWith(lines("""
                        /usr/bin/choom -n 1000 -- /opt/bwrap/bin/bwrap
                        --unshare-user --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup
                        --disable-userns
                        """))
                .contains(lines("""
                        --ro-bind /usr /usr
                        --symlink usr/bin /bin
                        --ro-bind /lib /lib --ro-bind /lib64 /lib64 --ro-bind /sbin /sbin
                        --ro-bind-fd 3 /etc/passwd
                        """))
                .endsWith(lines("""
                        --proc /proc --dev /dev
                        --size 8388608 --tmpfs /dev/shm --size 8388608 --tmpfs /tmp
                        --ro-bind-fd 5 /srv/reference --ro-bind-fd 6 /opt/tools
                        --bind-fd 7 /srv/cache
                        --bind-fd 8 /srv/repos --chdir /srv/repos
                        --remount-ro /proc --remount-ro /dev --remount-ro /
                        -- /usr/bin/prlimit --nproc=16 --as=67108864 --fsize=1048576 --nofile=64 --core=1
                        -- /opt/tools/bin/lint --strict
                        """))
                .doesNotContain("--unshare-net", "setpriv");
    }

    @Test
    void aRunWithACgroupWaitsToBePlacedAndIsBoundedByItInsteadOfByItsAddressSpace() {
        BubblewrapCommand.Descriptors fds = new BubblewrapCommand.Descriptors(3, 4, List.of(), List.of(), 5, 6, 7);
        String command = String.join(
                " ",
                BubblewrapCommand.argv(
                        ROOT_GATEWAY, SandboxPolicy.DEFAULTS, fds, true, Path.of("/w"), "/usr/bin/true", List.of()));
        assertThat(command)
                .contains("--json-status-fd 6 --block-fd 7 --ro-bind /usr /usr")
                .contains("-- /usr/bin/prlimit --nproc=256 --fsize=1073741824 --nofile=1024 --core=1")
                .doesNotContain("--as=");
    }

    @Test
    void keepsArgumentsWholeWhateverTheyContain() {
        List<String> argv = BubblewrapCommand.argv(
                ROOT_GATEWAY,
                SandboxPolicy.DEFAULTS,
                descriptors(SandboxPolicy.DEFAULTS),
                false,
                Path.of("/w"),
                "/usr/bin/echo",
                List.of("--bind / /", "a b", "$(id)", "-- x"));
        assertThat(argv.subList(argv.size() - 5, argv.size()))
                .containsExactly("/usr/bin/echo", "--bind / /", "a b", "$(id)", "-- x");
    }

    @ParameterizedTest(name = "{0} visible: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /usr/bin/git                 | true
            /bin/sh                      | true
            /lib64/ld-linux-x86-64.so.2  | true
            /opt/tools/bin/lint          | true
            /opt/toolsx/bin/lint         | false
            /srv/cache/run.sh            | true
            /w/build.sh                  | true
            /etc/passwd                  | false
            /root/.local/bin/tool        | false
            /tmp/other-run/tool          | false
            /sbin/ip                     | true
            """)
    void findsProgramsOnlyWhereTheSandboxSeesTheSameFile(String path, boolean visible) {
        SandboxPolicy policy = new SandboxPolicy(false, List.of("/opt/tools"), List.of("/srv/cache"), 16, 1, 1, 1, 1);
        assertThat(BubblewrapCommand.visible(ROOT_GATEWAY, policy, Path.of("/w"), Path.of(path)))
                .isEqualTo(visible);
    }
}
