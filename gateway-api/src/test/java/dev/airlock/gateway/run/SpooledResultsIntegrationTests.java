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
}
