package dev.airlock.gateway.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.capture.CaptureResult;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Results kept in the spool while the database was away, replayed once it answers. */
@AirlockIntegrationTest
class SpooledResultsIntegrationTests {

    @Autowired
    ResultSpool spool;

    @Autowired
    ResultRecorder recorder;

    @Autowired
    org.springframework.test.web.servlet.assertj.MockMvcTester mvc;

    @Autowired
    dev.airlock.kernel.config.AirlockProperties properties;

    @Test
    void aSpooledResultOfARunRetentionRemovedIsDroppedInsteadOfStoppingTheReplay() {
        // An INTERRUPTED run is purged like any ended run; a replica that comes back after that
        // still holds its result.
        UUID gone = UUID.randomUUID();
        Instant now = Instant.now();
        spool.keep(gone, CaptureResult.spawnFailed(now, now, "the sandbox could not start"));
        assertThat(recorder.spooled()).contains(gone);
        recorder.replay();
        assertThat(recorder.spooled()).doesNotContain(gone);
    }

    @Test
    void theOperatorsGaugeCountsTheResultsWaitingInTheSpoolAndNothingElse() throws Exception {
        // A result that cannot be read stays in the spool through every replay (the scheduled one included), as a
        // result the database refuses does: the operator's gauge counts it, and not a file someone left there.
        double before = spooledGauge();
        java.nio.file.Path waiting = spoolDir().resolve(UUID.randomUUID() + ".result.json");
        java.nio.file.Path stray = spoolDir().resolve("notes.result.json");
        java.nio.file.Files.writeString(waiting, "{not a result");
        java.nio.file.Files.writeString(stray, "{}");
        try {
            recorder.replay();
            assertThat(spooledGauge()).isEqualTo(before + 1);
        } finally {
            java.nio.file.Files.delete(waiting);
            java.nio.file.Files.delete(stray);
        }
        assertThat(spooledGauge()).isEqualTo(before);
    }

    private java.nio.file.Path spoolDir() {
        return properties.dataDir().resolve("spool");
    }

    /** {@code airlock_results_spooled}, as Prometheus scrapes it. */
    private double spooledGauge() throws java.io.UnsupportedEncodingException {
        var response = mvc.get()
                .uri("/actuator/prometheus")
                .header("Authorization", "Bearer test-scrape-token")
                .exchange()
                .getResponse();
        assertThat(response.getStatus()).isEqualTo(200);
        java.util.regex.Matcher gauge = java.util.regex.Pattern.compile("(?m)^airlock_results_spooled (\\S+)$")
                .matcher(response.getContentAsString());
        assertThat(gauge.find()).as("the gauge is scraped").isTrue();
        return Double.parseDouble(gauge.group(1));
    }
}
