package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.HostProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * Requests racing for one idempotency key (sent at the same instant, so that several pass the
 * lookup of an earlier run before any is recorded): they all get the one recorded run, its tool
 * starts once, and nothing of the requests that lost is left running.
 */
@AirlockIntegrationTest
class IdempotencyRaceIntegrationTests {

    private static final String KEY = "cluster-bot-key";
    private static final Path STAMPS = Path.of(System.getProperty("user.dir"), "target", "race-stamps");
    private static final int REQUESTS = 8;

    @Autowired
    MockMvcTester mvc;

    AgentApi api;

    @BeforeEach
    void setUp() throws IOException {
        api = new AgentApi(mvc);
        Files.createDirectories(STAMPS);
        // Writable by the sandbox's host user, whoever runs the tests.
        Files.setPosixFilePermissions(STAMPS, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.deleteIfExists(STAMPS.resolve("stamps"));
    }

    @Test
    void onlyTheRecordedRunOfRequestsRacingForOneIdempotencyKeyStartsItsTool() throws Exception {
        for (int round = 0; round < 3; round++) {
            String idempotencyKey = "held-" + UUID.randomUUID();
            CyclicBarrier together = new CyclicBarrier(REQUESTS);
            List<Future<AgentApi.Response>> answers = new ArrayList<>();
            try (ExecutorService clients = Executors.newFixedThreadPool(REQUESTS)) {
                for (int i = 0; i < REQUESTS; i++) {
                    answers.add(clients.submit(() -> {
                        together.await(10, TimeUnit.SECONDS);
                        return api.post(KEY, "/api/v1/runs", "{\"tool\":\"stamp\"}", idempotencyKey);
                    }));
                }
            }
            Set<String> runIds = new HashSet<>();
            for (Future<AgentApi.Response> answer : answers) {
                AgentApi.Response response = answer.get();
                assertThat(response.status()).as(response.body().toString()).isIn(200, 201);
                runIds.add(response.text("runId"));
            }
            assertThat(runIds).hasSize(1);
            String runId = runIds.iterator().next();
            AgentApi.Response ended = api.get(KEY, "/api/v1/runs/" + runId + "?wait=PT20S");
            assertThat(ended.text("state")).isEqualTo("COMPLETED");

            org.awaitility.Awaitility.await("processes of the race gone")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> HostProcesses.withEnvironment("AIRLOCK_TEST_TOOL=stamp"), List::isEmpty);
            assertThat(Files.readAllLines(STAMPS.resolve("stamps"))).containsExactly(runId);
            Files.delete(STAMPS.resolve("stamps"));
        }
    }
}
