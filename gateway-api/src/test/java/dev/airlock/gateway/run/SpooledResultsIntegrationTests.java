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

    @Test
    void aSpooledResultOfARunRetentionRemovedIsDroppedInsteadOfStoppingTheReplay() throws Exception {
        // An INTERRUPTED run is purged like any ended run; a replica that comes back after that
        // still holds its result.
        UUID gone = UUID.randomUUID();
        Instant now = Instant.now();
        spool.keep(gone, CaptureResult.spawnFailed(now, now, "the sandbox could not start"));
        assertThat(recorder.spooled()).contains(gone);
        assertThat(scraped()).as("the operator's gauge counts it").contains("airlock_results_spooled 1.0");
        recorder.replay();
        assertThat(recorder.spooled()).doesNotContain(gone);
        assertThat(scraped()).contains("airlock_results_spooled 0.0");
    }

    private String scraped() throws java.io.UnsupportedEncodingException {
        var response = mvc.get()
                .uri("/actuator/prometheus")
                .header("Authorization", "Bearer test-scrape-token")
                .exchange()
                .getResponse();
        assertThat(response.getStatus()).isEqualTo(200);
        return response.getContentAsString();
    }
}
