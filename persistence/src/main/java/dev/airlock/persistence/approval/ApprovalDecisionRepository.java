package dev.airlock.persistence.approval;

import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Decisions; callers resolve the request within its tenant first. */
// Declared query methods get no transaction of their own from Spring Data: this gives them one, so
// that every query runs in a transaction that carries the thread's database scope (role and tenants).
@org.springframework.transaction.annotation.Transactional(readOnly = true)
public interface ApprovalDecisionRepository extends JpaRepository<ApprovalDecision, Long> {

    List<ApprovalDecision> findByRunIdOrderByDecidedAtAsc(UUID runId);
}
