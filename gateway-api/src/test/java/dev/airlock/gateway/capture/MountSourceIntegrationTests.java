package dev.airlock.gateway.capture;

import static dev.airlock.gateway.support.AgentApi.MOUNTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import tools.jackson.databind.JsonNode;

/**
 * A directory a tool mounts (read-only path, writable path, working directory, or a directory on
 * the way to one) replaced by a symbolic link, as a run of another tool with a writable parent
 * did before the start-up rule (MountRules) refused such configurations, and as anyone else who
 * can write there still may: the run fails with a clear reason and its tool never sees what the
 * link points to. The "host" here is a directory of the test's with a file no tool may see.
 */
@AirlockIntegrationTest
class MountSourceIntegrationTests {

    private static final Path BASE =
            Path.of(System.getProperty("user.dir"), "target", "mounts").toAbsolutePath();
    private static final Path HOST = BASE.resolve("host-only");
    private static final String HOST_FILE = "host-only-secret.txt";
    private static final String REAL_FILE = "the-real-mount.txt";

    @Autowired
    MockMvcTester mvc;

    AgentApi api;

    @BeforeEach
    void setUp() throws IOException {
        api = new AgentApi(mvc);
        Files.createDirectories(HOST);
        Files.writeString(HOST.resolve(HOST_FILE), "what a link would expose\n");
    }

    /** Makes {@code dir} a real directory holding the marker file, replacing whatever is there. */
    private static void real(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            Files.delete(dir);
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(REAL_FILE), "real\n");
    }

    /** Replaces {@code dir} by a symbolic link to the host-only directory. */
    private static void link(Path dir) throws IOException {
        if (Files.isSymbolicLink(dir)) {
            Files.delete(dir);
        } else if (Files.isDirectory(dir)) {
            WorkArea.deleteTree(dir);
        }
        Files.createDirectories(dir.getParent());
        Files.createSymbolicLink(dir, HOST);
    }

    private JsonNode run(String tool) {
        AgentApi.Response response = api.run(MOUNTS, tool, "{}");
        assertThat(response.status()).isEqualTo(201);
        return response.body();
    }

    private static void assertRanOnTheRealDirectory(JsonNode run) {
        assertThat(run.path("state").asString()).isEqualTo("COMPLETED");
        assertThat(run.path("stdout").path("text").asString()).contains(REAL_FILE);
    }

    private static void assertRefusedWithoutMounting(JsonNode run, String component) {
        assertThat(run.path("state").asString()).isEqualTo("FAILED");
        assertThat(run.path("process").path("termination").asString()).isEqualTo("SPAWN_FAILED");
        assertThat(run.path("process").path("failure").asString())
                .contains("sandbox path")
                .contains(component.toString())
                .contains("is a symbolic link");
        assertThat(run.toString()).doesNotContain(HOST_FILE);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"read-only-victim, read-only", "writable-victim, writable", "working-dir-victim, working-dir"})
    void aMountSourceReplacedByALinkFailsTheRunAndMountsNothing(String tool, String dir) throws IOException {
        Path data = BASE.resolve(dir).resolve("data");
        real(data);
        assertRanOnTheRealDirectory(run(tool));

        link(data);
        assertRefusedWithoutMounting(run(tool), data.toString());
        assertThat(HOST.resolve(HOST_FILE)).as("the link's target is untouched").exists();

        real(data);
        assertRanOnTheRealDirectory(run(tool));
    }

    @Test
    void aLinkOnTheWayToAMountSourceFailsTheRunToo() throws IOException {
        Path elsewhere = BASE.resolve("parent").resolve("elsewhere");
        real(elsewhere.resolve("data"));
        Path link = BASE.resolve("parent").resolve("link");
        if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(link);
        }
        Files.createSymbolicLink(link, elsewhere);

        JsonNode run = run("parent-victim");

        assertRefusedWithoutMounting(run, link.toString());
        assertThat(run.path("stdout").path("text").asString()).doesNotContain(REAL_FILE);
    }

    @Test
    void aLinkSwappedInWhileRunsStartIsNeverMounted() throws Exception {
        Path data = BASE.resolve("race").resolve("data");
        Path stash = BASE.resolve("race").resolve("stash");
        WorkArea.deleteTree(stash);
        real(data);
        AtomicBoolean swapping = new AtomicBoolean(true);
        AtomicInteger swaps = new AtomicInteger();
        CompletableFuture<Void> swapper = CompletableFuture.runAsync(() -> {
            try {
                while (swapping.get()) {
                    Files.move(data, stash, StandardCopyOption.ATOMIC_MOVE);
                    Files.createSymbolicLink(data, HOST);
                    Thread.onSpinWait();
                    Files.delete(data);
                    Files.move(stash, data, StandardCopyOption.ATOMIC_MOVE);
                    swaps.incrementAndGet();
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        List<JsonNode> runs = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                runs.add(run("race-victim"));
            }
        } finally {
            swapping.set(false);
            swapper.join();
        }
        assertThat(swaps.get())
                .as("the directory was swapped while runs started")
                .isGreaterThan(40);
        for (JsonNode run : runs) {
            assertThat(run.toString()).doesNotContain(HOST_FILE);
            if (run.path("state").asString().equals("COMPLETED")) {
                assertThat(run.path("stdout").path("text").asString()).isEqualTo(REAL_FILE + "\n");
            } else {
                assertThat(run.path("state").asString()).isEqualTo("FAILED");
                assertThat(run.path("process").path("failure").asString())
                        .containsAnyOf("is a symbolic link", "does not exist", "the sandbox could not be set up");
            }
        }
    }

    @Test
    void aDirectoryOwnedByTheSandboxsHostUserIsNeverOnTheWayToAMount() throws IOException {
        assumeThat(WorkArea.currentUid())
                .as("only a gateway running as root starts sandboxes as another host user")
                .isZero();
        Path owned = BASE.resolve("owned").resolve("by-sandbox");
        real(owned.resolve("data"));
        Files.setAttribute(owned, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        try {
            JsonNode run = run("owned-victim");

            assertThat(run.path("state").asString()).isEqualTo("FAILED");
            assertThat(run.path("process").path("failure").asString())
                    .contains(owned.toString())
                    .contains("is owned by the sandbox's host user 65534");
        } finally {
            Files.setAttribute(owned, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        }
        assertRanOnTheRealDirectory(run("owned-victim"));
    }
}
