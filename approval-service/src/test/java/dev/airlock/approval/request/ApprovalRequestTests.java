package dev.airlock.approval.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The approval aggregate's rules, without a database. */
class ApprovalRequestTests {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final String DIGEST = dev.airlock.kernel.digest.Sha256.hex("tool: deploy\n");

    private final List<ApprovalDecision> decisions = new ArrayList<>();

    private static ApprovalRequest request(int approvers) {
        return request(approvers, false);
    }

    private static ApprovalRequest request(int approvers, boolean approveReasonRequired) {
        return request(approvers, approveReasonRequired, DIGEST);
    }

    /** A request shown as "tool: deploy", bound to {@code digest}. */
    private static ApprovalRequest request(int approvers, boolean approveReasonRequired, String digest) {
        return new ApprovalRequest(
                UUID.randomUUID(),
                "acme",
                "deploy",
                "build-bot",
                "carol",
                "tool: deploy\n",
                digest,
                approvers,
                approveReasonRequired,
                NOW,
                NOW.plus(Duration.ofHours(1)));
    }

    /** A configured person: the identity follows from the name. */
    private static Approver person(String name) {
        return new Approver(name, "password:" + name, java.util.Set.of("acme"));
    }

    private ApprovalDecision decide(ApprovalRequest request, String who, Verdict verdict, String reason) {
        return decide(request, person(who), verdict, reason);
    }

    private ApprovalDecision decide(ApprovalRequest request, Approver who, Verdict verdict, String reason) {
        ApprovalDecision decision =
                DecisionRules.decide(request, who, verdict, reason, DIGEST, decisions, NOW.plusSeconds(60));
        decisions.add(decision);
        return decision;
    }

    @Test
    void approvesOnceTheQuorumOfDistinctApproversIsReached() {
        ApprovalRequest request = request(2);
        decide(request, "alice", Verdict.APPROVE, null);
        assertThat(request.status()).isEqualTo(ApprovalStatus.PENDING);
        decide(request, "bob", Verdict.APPROVE, "looks right");
        assertThat(request.status()).isEqualTo(ApprovalStatus.APPROVED);
        assertThat(request.closedAt()).isEqualTo(NOW.plusSeconds(60));
    }

    @Test
    void oneDenialEndsTheRequest() {
        ApprovalRequest request = request(2);
        decide(request, "alice", Verdict.APPROVE, null);
        decide(request, "bob", Verdict.DENY, "wrong service");
        assertThat(request.status()).isEqualTo(ApprovalStatus.DENIED);
        assertThatThrownBy(() -> decide(request, "dave", Verdict.APPROVE, null))
                .isInstanceOf(DecisionRefused.class)
                .satisfies(
                        e -> assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.NOT_PENDING));
    }

    @Test
    void refusesASecondDecisionByTheSamePerson() {
        ApprovalRequest request = request(2);
        decide(request, "alice", Verdict.APPROVE, null);
        assertThatThrownBy(() -> decide(request, "alice", Verdict.APPROVE, null))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.ALREADY_DECIDED));
        assertThat(request.status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void onePersonUnderTwoNamesOrTwoSignInsUnderOneNameCountOnce() {
        ApprovalRequest request = request(2);
        decide(request, new Approver("alice", "oidc:sso:subject-7", java.util.Set.of("acme")), Verdict.APPROVE, null);
        // The provider renamed the account: the same subject is still the same person.
        assertThatThrownBy(() -> decide(
                        request,
                        new Approver("alice2", "oidc:sso:subject-7", java.util.Set.of("acme")),
                        Verdict.APPROVE,
                        null))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.ALREADY_DECIDED));
        // A configured person sharing the name is not a second approver either.
        assertThatThrownBy(() -> decide(request, person("alice"), Verdict.APPROVE, null))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.ALREADY_DECIDED));
        assertThat(request.status()).isEqualTo(ApprovalStatus.PENDING);
        assertThat(decisions)
                .singleElement()
                .satisfies(d -> assertThat(d.approverIdentity()).isEqualTo("oidc:sso:subject-7"));
        decide(request, person("bob"), Verdict.APPROVE, null);
        assertThat(request.status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void refusesADecisionOnAnotherDigest() {
        ApprovalRequest request = request(1);
        assertThatThrownBy(() -> DecisionRules.decide(
                        request, person("alice"), Verdict.APPROVE, null, "e".repeat(64), decisions, NOW))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.DIGEST_MISMATCH));
    }

    @Test
    void refusesADecisionOnARequestWhoseActionIsNotItsDigests() {
        // Shown "tool: deploy", bound to the digest of another action: nobody may decide, even with that digest.
        String other = dev.airlock.kernel.digest.Sha256.hex("tool: destroy\n");
        ApprovalRequest request = request(1, false, other);
        assertThatThrownBy(() ->
                        DecisionRules.decide(request, person("alice"), Verdict.APPROVE, null, other, decisions, NOW))
                .isInstanceOfSatisfying(DecisionRefused.class, e -> {
                    assertThat(e.reason()).isEqualTo(DecisionRefused.Reason.DIGEST_MISMATCH);
                    assertThat(e.getMessage()).startsWith("The request's action does not hash to its digest");
                });
        assertThat(request.status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void refusesTheOwnerOfTheRequestingAgent() {
        ApprovalRequest request = request(1);
        // An identity provider may send the owner's name in another case, or in a compatibility form.
        for (String owner : List.of("carol", "Carol", "CAROL", "\uFF43arol")) {
            assertThatThrownBy(() -> decide(
                            request,
                            new Approver(owner, "oidc:corp:" + owner, java.util.Set.of("acme")),
                            Verdict.APPROVE,
                            null))
                    .as(owner)
                    .satisfies(e ->
                            assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.SELF_APPROVAL));
        }
        assertThat(decisions).isEmpty();
    }

    @Test
    void oneNameInAnotherCaseIsNotASecondApprover() {
        ApprovalRequest request = request(2);
        decide(request, "alice", Verdict.APPROVE, null);
        assertThatThrownBy(() -> decide(
                        request,
                        new Approver("Alice", "oidc:corp:subject-9", java.util.Set.of("acme")),
                        Verdict.APPROVE,
                        null))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.ALREADY_DECIDED));
        assertThat(request.status()).isEqualTo(ApprovalStatus.PENDING);
    }

    @Test
    void requiresAReasonToDeny() {
        ApprovalRequest request = request(1);
        assertThatThrownBy(() -> decide(request, "alice", Verdict.DENY, " "))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.REASON_REQUIRED));
    }

    @Test
    void requiresAReasonToApproveWhenThePolicySaysSo() {
        ApprovalRequest request = request(1, true);
        assertThatThrownBy(() -> decide(request, "alice", Verdict.APPROVE, null))
                .satisfies(e ->
                        assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.REASON_REQUIRED));
        decide(request, "alice", Verdict.APPROVE, "change ticket 42");
        assertThat(request.status()).isEqualTo(ApprovalStatus.APPROVED);
    }

    @Test
    void expiresOnlyWhenDueAndThenTakesNoDecision() {
        ApprovalRequest request = request(1);
        assertThat(request.expire(NOW.plusSeconds(3599))).isFalse();
        assertThat(request.expire(NOW.plusSeconds(3600))).isTrue();
        assertThat(request.status()).isEqualTo(ApprovalStatus.EXPIRED);
        assertThatThrownBy(() -> DecisionRules.decide(
                        request, person("alice"), Verdict.APPROVE, null, DIGEST, decisions, NOW.plusSeconds(3700)))
                .satisfies(
                        e -> assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.NOT_PENDING));
    }

    @Test
    void refusesADecisionAfterTheDeadlineEvenBeforeTheExpiryJob() {
        ApprovalRequest request = request(1);
        assertThatThrownBy(() -> DecisionRules.decide(
                        request, person("alice"), Verdict.APPROVE, null, DIGEST, decisions, NOW.plusSeconds(3600)))
                .satisfies(e -> assertThat(((DecisionRefused) e).reason()).isEqualTo(DecisionRefused.Reason.EXPIRED));
    }
}
