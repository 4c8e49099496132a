package dev.airlock.persistence.approval;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** One human's decision on one approval request, naming the digest of the action they saw. */
@Entity
@Table(name = "approval_decisions", schema = "airlock")
public class ApprovalDecision {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "run_id", nullable = false, updatable = false)
    private UUID runId;

    @Column(nullable = false, updatable = false)
    private String approver;

    /** The approver's stable identity; null on decisions recorded before identities were. */
    @Column(name = "approver_identity", updatable = false)
    private @Nullable String approverIdentity;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, updatable = false)
    private Verdict decision;

    @Column(updatable = false)
    private @Nullable String reason;

    @Column(nullable = false, updatable = false)
    private String digest;

    @Column(name = "decided_at", nullable = false, updatable = false)
    private Instant decidedAt;

    protected ApprovalDecision() {}

    /** A decision as approval-service's rules accept it ({@code DecisionRules}). */
    public ApprovalDecision(
            UUID runId,
            String approver,
            String approverIdentity,
            Verdict decision,
            @Nullable String reason,
            String digest,
            Instant decidedAt) {
        this.runId = runId;
        this.approver = approver;
        this.approverIdentity = approverIdentity;
        this.decision = decision;
        this.reason = reason;
        this.digest = digest;
        this.decidedAt = decidedAt;
    }

    public UUID runId() {
        return runId;
    }

    public String approver() {
        return approver;
    }

    /** The approver's stable identity, or null on a decision recorded before identities were. */
    public @Nullable String approverIdentity() {
        return approverIdentity;
    }

    public Verdict decision() {
        return decision;
    }

    public @Nullable String reason() {
        return reason;
    }

    public String digest() {
        return digest;
    }

    public Instant decidedAt() {
        return decidedAt;
    }
}
