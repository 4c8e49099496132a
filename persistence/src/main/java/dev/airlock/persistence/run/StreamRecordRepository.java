package dev.airlock.persistence.run;

import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Stream facts of runs. Callers resolve the run within its tenant first. */
public interface StreamRecordRepository extends JpaRepository<StreamRecord, StreamKey> {

    List<StreamRecord> findByKeyRunId(UUID runId);
}
