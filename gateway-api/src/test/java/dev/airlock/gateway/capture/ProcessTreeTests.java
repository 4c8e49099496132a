package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.HostProcesses;
import dev.airlock.gateway.support.HostProcesses.HostProcess;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Each layer of killing a run, alone: killing the tree takes every descendant without the
 * environment sweep's help, and the sweep takes a process that left the tree. The supervisor
 * uses both, so a test of the supervisor alone would pass with either layer broken.
 */
class ProcessTreeTests {

    private static final String NOTHING_CARRIES_THIS = "AIRLOCK_TEST_NOBODY=" + UUID.randomUUID();

    private static Process start(String marker, String script) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script);
        builder.environment().put(marker.substring(0, marker.indexOf('=')), marker.substring(marker.indexOf('=') + 1));
        return builder.start();
    }

    @Test
    void killingTheTreeTakesEveryDescendantWithoutTheSweep() throws Exception {
        String marker = "AIRLOCK_TEST_TREE=" + UUID.randomUUID();
        Process root = start(marker, "sleep 71 & (sleep 72 & wait) & wait");
        List<HostProcess> tree = HostProcesses.awaitWithEnvironment(
                marker, HostProcesses.sleeping("71").and(HostProcesses.sleeping("72")), Duration.ofSeconds(10));

        List<ProcessTree.Member> killed = ProcessTree.kill(root.pid(), NOTHING_CARRIES_THIS);

        assertThat(killed).isNotEmpty();
        assertThat(ProcessTree.awaitGone(killed, Duration.ofSeconds(5))).isTrue();
        assertThat(HostProcesses.stillAlive(tree))
                .as("the tree right after its kill")
                .isEmpty();
        assertThat(ProcessTree.killMarked(marker))
                .as("what a sweep would still have found")
                .isEmpty();
        assertThat(root.waitFor(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theSweepTakesAProcessThatLeftTheTree() throws Exception {
        String marker = "AIRLOCK_TEST_ORPHAN=" + UUID.randomUUID();
        // The subshell exits at once, so the sleep is reparented away from the tree.
        Process root = start(marker, "(sleep 73 &) ; exit 0");
        assertThat(root.waitFor(5, TimeUnit.SECONDS)).isTrue();
        List<HostProcess> orphan =
                HostProcesses.awaitWithEnvironment(marker, HostProcesses.sleeping("73"), Duration.ofSeconds(10));
        assertThat(ProcessTree.kill(root.pid(), NOTHING_CARRIES_THIS))
                .as("the tree has nothing left to kill")
                .isEmpty();
        assertThat(HostProcesses.stillAlive(orphan)).isNotEmpty();

        List<ProcessTree.Member> swept = ProcessTree.killMarked(marker);

        assertThat(swept).hasSize(1);
        assertThat(ProcessTree.awaitGone(swept, Duration.ofSeconds(5))).isTrue();
        assertThat(HostProcesses.stillAlive(orphan)).isEmpty();
    }

    @Test
    void aNamespaceInitThatOutlivedItsParentIsKilledAndNothingElseIs() throws Exception {
        // A PID namespace whose init (here `sleep` itself) outlives the process that made it, as a
        // sandbox's init would if a tool kept it from dying with bubblewrap.
        Process unshare =
                new ProcessBuilder("unshare", "--user", "--map-root-user", "--pid", "--fork", "sleep", "73").start();
        long init = -1;
        for (int i = 0; i < 100 && init < 0; i++) {
            init = unshare.toHandle()
                    .children()
                    .mapToLong(ProcessHandle::pid)
                    .findFirst()
                    .orElse(-1);
            Thread.sleep(50);
        }
        assertThat(init).as("the namespace's init").isPositive();
        unshare.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        assertThat(ProcessHandle.of(init).map(ProcessHandle::isAlive))
                .as("the init outlived its parent")
                .contains(true);
        Process plain = new ProcessBuilder("sleep", "74").start();
        try {
            assertThat(ProcessTree.killNamespaceInit(plain.pid()))
                    .as("not a namespace's init")
                    .isFalse();
            assertThat(ProcessTree.killNamespaceInit(init)).isTrue();
            assertThat(ProcessTree.awaitGone(init, Duration.ofSeconds(5))).isTrue();
            assertThat(plain.isAlive()).isTrue();
        } finally {
            plain.destroyForcibly();
            ProcessHandle.of(init).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aParentThatEndsWhileTheTreeIsRankedEndsTheCountWithoutAnError() {
        // Ranking a tree for its kill asks each process for its parent; a parent may end between two questions. Asked
        // twice, "present" then "gone" threw NoSuchElementException out of stopping an MCP server.
        ProcessHandle root = handle(List.of(Optional.empty()));
        ProcessHandle ending = handle(List.of(Optional.of(root), Optional.empty()));
        ProcessHandle child = handle(List.of(Optional.of(ending)));

        assertThat(ProcessTree.depth(child)).isEqualTo(2);
        assertThat(ProcessTree.depth(child))
                .as("asked again, once the middle one has ended")
                .isEqualTo(1);
    }

    /** A process handle whose parent is each of {@code parents} in turn (the last one from then on). */
    private static ProcessHandle handle(List<Optional<ProcessHandle>> parents) {
        AtomicInteger asked = new AtomicInteger();
        return (ProcessHandle) Proxy.newProxyInstance(
                ProcessHandle.class.getClassLoader(), new Class<?>[] {ProcessHandle.class}, (proxy, method, args) -> {
                    if (method.getName().equals("parent")) {
                        return parents.get(Math.min(asked.getAndIncrement(), parents.size() - 1));
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
