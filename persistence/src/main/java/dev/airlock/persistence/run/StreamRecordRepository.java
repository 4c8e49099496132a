package dev.airlock.persistence.run;

import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Stream facts of runs. Callers resolve the run within its tenant first. */
// Declared query methods get no transaction of their own from Spring Data: this gives them one, so
// that every query runs in a transaction that carries the thread's database scope (role and tenants).
@org.springframework.transaction.annotation.Transactional(readOnly = true)
public interface StreamRecordRepository extends JpaRepository<StreamRecord, StreamKey> {

    List<StreamRecord> findByKeyRunId(UUID runId);
}
