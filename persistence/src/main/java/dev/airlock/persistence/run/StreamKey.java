package dev.airlock.persistence.run;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.io.Serializable;
import java.util.UUID;

/**
 * Identifies one stream of one run.
 *
 * @param runId  the run
 * @param stream which stream
 */
@Embeddable
public record StreamKey(
        @Column(name = "run_id") UUID runId,
        @Column(name = "stream") StreamName stream) implements Serializable {}
