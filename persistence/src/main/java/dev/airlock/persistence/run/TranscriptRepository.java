package dev.airlock.persistence.run;

import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Sanitized transcripts. Callers resolve the run within its tenant first. */
public interface TranscriptRepository extends JpaRepository<Transcript, StreamKey> {

    List<Transcript> findByKeyRunId(UUID runId);
}
