package dev.airlock.gateway.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What replicas leave on the host: each keeps its runs' directories in a directory of its own,
 * locked while it lives; whatever a replica that was killed left is removed when another starts,
 * and a live replica's directory (locked by another process here) is never touched.
 */
class WorkAreaTests {

    @TempDir
    Path root;

    /** Another process holding a POSIX lock on {@code file} (Python's lockf is fcntl, as the JVM's FileChannel.lock). */
    private static Process lockHolder(Path file) throws IOException {
        Process holder = new ProcessBuilder(
                        "python3",
                        "-c",
                        "import fcntl, sys, time\n"
                                + "f = open(sys.argv[1], 'r+')\nfcntl.lockf(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(120)\n",
                        file.toString())
                .redirectErrorStream(true)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("locked");
        return holder;
    }

    private static Path leftover(Path root, String name) throws IOException {
        Path replica = Files.createDirectories(root.resolve(name));
        Files.writeString(replica.resolve("lock"), "");
        Path run = Files.createDirectories(replica.resolve("run-1").resolve("deep"));
        Files.writeString(run.resolve("output.txt"), "what the run wrote");
        // A run that made its directory unreadable still goes.
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("---------"));
        return replica;
    }

    @Test
    void removesWhatKilledReplicasLeftButNeverALiveReplicasDirectory() throws Exception {
        Path dead = leftover(root, "replica-dead");
        Path alive = leftover(root, "replica-alive");
        Path unrelated = Files.createDirectories(root.resolve("not-a-replica"));
        Process holder = lockHolder(alive.resolve("lock"));
        try (WorkArea area = WorkArea.open(root)) {
            assertThat(dead).doesNotExist();
            assertThat(alive).exists();
            assertThat(alive.resolve("run-1")).exists();
            assertThat(unrelated).exists();
            assertThat(area.directory().getFileName().toString()).startsWith("replica-");
            assertThat(area.directory().resolve("lock")).exists();
        } finally {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void killsTheSandboxesAKilledReplicaLeftWaitingButNoLiveReplicas() throws Exception {
        // A sandbox waiting to be let go outlives a replica that is killed (see WorkArea.holding);
        // here a process carrying the run's marker stands for it.
        String deadRun = java.util.UUID.randomUUID().toString();
        String liveRun = java.util.UUID.randomUUID().toString();
        Path dead = leftover(root, "replica-dead");
        Files.writeString(dead.resolve("held-" + deadRun), "");
        Files.writeString(dead.resolve("held-not-a-run-id"), "");
        Path alive = leftover(root, "replica-alive");
        Files.writeString(alive.resolve("held-" + liveRun), "");
        Process deadRunsInit = marked(deadRun);
        Process liveRunsInit = marked(liveRun);
        Process holder = lockHolder(alive.resolve("lock"));
        try (WorkArea area = WorkArea.open(root)) {
            assertThat(deadRunsInit.waitFor(10, TimeUnit.SECONDS))
                    .as("the dead replica's waiting sandbox killed")
                    .isTrue();
            assertThat(liveRunsInit.isAlive())
                    .as("the live replica's waiting sandbox")
                    .isTrue();
            assertThat(dead).doesNotExist();
        } finally {
            for (Process process : List.of(holder, deadRunsInit, liveRunsInit)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Process marked(String runId) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sleep", "120");
        builder.environment().put(ProcessSpec.RUN_ID_VARIABLE, runId);
        return builder.start();
    }

    @Test
    void leavesNothingWhenItCloses() throws IOException {
        Path directory;
        try (WorkArea area = WorkArea.open(root)) {
            directory = area.directory();
            Files.writeString(area.newDirectory("run-2").resolve("file"), "x");
        }
        assertThat(directory).doesNotExist();
        try (var entries = Files.list(root)) {
            assertThat(entries.toList()).isEmpty();
        }
    }

    @Test
    void removingATreeNeverFollowsALinkOutOfIt() throws IOException {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "not the run's");
        Path run = Files.createDirectories(root.resolve("run").resolve("deep"));
        Files.createSymbolicLink(run.resolve("to-outside"), outside);
        Files.createSymbolicLink(run.resolve("to-file"), outside.resolve("keep.txt"));
        Files.writeString(run.resolve("own.txt"), "the run's");
        var permissions = Files.getPosixFilePermissions(outside);

        WorkArea.deleteTree(root.resolve("run"));

        assertThat(root.resolve("run")).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("not the run's");
        assertThat(Files.getPosixFilePermissions(outside))
                .as("not opened up through the link")
                .isEqualTo(permissions);
    }

    @Test
    void twoReplicasOfOneJvmKeepTheirOwnDirectories() throws IOException {
        try (WorkArea first = WorkArea.open(root);
                WorkArea second = WorkArea.open(root)) {
            assertThat(first.directory()).exists().isNotEqualTo(second.directory());
            assertThat(second.directory()).exists();
        }
    }

    @Test
    void refusesARootThatIsALinkOrOpenToOthers() throws IOException {
        Path target = Files.createDirectories(root.resolve("target"));
        Path link = Files.createSymbolicLink(root.resolve("link"), target);
        assertThatThrownBy(() -> WorkArea.open(link))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageStartingWith("airlock.sandbox.work-dir: ")
                .hasMessageContaining("not a link");
        Path open = Files.createDirectories(root.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> WorkArea.open(open)).hasMessageContaining("mode 0711 or 0700");
        assertThat(List.of(target, open)).allMatch(Files::exists);
    }

    @Test
    void replicasStartingAndStoppingAtOnceOnOneRootNeverFailEachOthersStart() throws Exception {
        // Each start looks at every other replica's directory (and staging directory) while those are named,
        // removed or renamed: one that changes while it is looked at is left for the next start.
        int replicas = 4;
        int rounds = 150;
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(replicas);
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                done.add(threads.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        WorkArea.open(root).close();
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> each : done) {
                each.get(2, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
        try (var left = Files.list(root)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith("replica-"));
        }
    }
}
