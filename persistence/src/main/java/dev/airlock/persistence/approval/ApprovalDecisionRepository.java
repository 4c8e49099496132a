package dev.airlock.persistence.approval;

import java.util.List;
import java.util.UUID;
import org.springframework.data.jpa.repository.JpaRepository;

/** Decisions; callers resolve the request within its tenant first. */
public interface ApprovalDecisionRepository extends JpaRepository<ApprovalDecision, Long> {

    List<ApprovalDecision> findByRunIdOrderByDecidedAtAsc(UUID runId);
}
