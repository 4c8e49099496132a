package dev.airlock.approval.request;

import dev.airlock.approval.input.HumanText;
import dev.airlock.persistence.approval.ApprovalDecision;
import dev.airlock.persistence.approval.ApprovalDecisionRepository;
import dev.airlock.persistence.approval.ApprovalRequest;
import dev.airlock.persistence.approval.ApprovalRequestRepository;
import dev.airlock.persistence.approval.ApprovalStatus;
import dev.airlock.persistence.approval.Verdict;
import dev.airlock.persistence.audit.AuditEventType;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.audit.RunQuery;
import dev.airlock.persistence.event.ApprovalClosed;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records people's decisions on approval requests (which the agent side opens, through the
 * database) and expires the ones nobody decided in time. A decision takes a row lock on its
 * request, so concurrent decisions on one run are applied one after the other; every outcome
 * is published as {@link ApprovalClosed} inside the same transaction.
 */
@Service
public class ApprovalService {

    private static final Logger log = LoggerFactory.getLogger(ApprovalService.class);

    private final ApprovalRequestRepository requests;
    private final ApprovalDecisionRepository decisions;
    private final ApplicationEventPublisher events;
    private final AuditLog audit;
    private final HumanText text;
    private final TransactionTemplate transactions;
    private final Clock clock;

    private final dev.airlock.persistence.database.DatabaseTime databaseTime;

    ApprovalService(
            ApprovalRequestRepository requests,
            ApprovalDecisionRepository decisions,
            ApplicationEventPublisher events,
            AuditLog audit,
            HumanText text,
            TransactionTemplate transactions,
            Clock clock,
            dev.airlock.persistence.database.DatabaseTime databaseTime) {
        this.databaseTime = databaseTime;
        this.requests = requests;
        this.decisions = decisions;
        this.events = events;
        this.audit = audit;
        this.text = text;
        this.transactions = transactions;
        this.clock = clock;
    }

    /**
     * The time a request's expiry is judged by: the later of this replica's clock and the database's,
     * so that a replica whose clock runs behind cannot approve what has expired by the shared clock.
     */
    private java.time.Instant deadlineClock() {
        return databaseTime.laterOf(clock.instant());
    }

    /**
     * Records {@code approver}'s decision on the run's request.
     *
     * @throws NotAnApprover when the approver has no APPROVER role in the run's tenant (or the
     *                       run has no request): indistinguishable from a missing request
     * @throws DecisionRefused when the request cannot take it
     * @throws HumanText.Refused when the reason is longer than people may type
     */
    @Transactional
    public ApprovalView decide(
            Approver approver, UUID runId, Verdict verdict, @Nullable String reason, @Nullable String digest) {
        text.check("reason", reason);
        ApprovalRequest request =
                requests.lockForDecision(runId, approver.tenants()).orElseThrow(() -> new NotAnApprover(runId));
        List<ApprovalDecision> earlier = decisions.findByRunIdOrderByDecidedAtAsc(runId);
        ApprovalDecision decision =
                DecisionRules.decide(request, approver, verdict, reason, digest, earlier, deadlineClock());
        decisions.save(decision);
        requests.save(request);
        java.util.Map<String, String> details = new java.util.TreeMap<>(java.util.Map.of(
                "decision",
                verdict.name(),
                "digest",
                digest,
                "identity",
                approver.identity(),
                "status",
                request.status().name()));
        if (decision.reason() != null) {
            details.put("reason", decision.reason());
        }
        audit.append(
                request.tenant(),
                AuditEventType.APPROVAL_DECIDED,
                runId,
                "human:" + approver.name(),
                details,
                decision.decidedAt());
        if (request.status() != ApprovalStatus.PENDING) {
            events.publishEvent(
                    new ApprovalClosed(runId, request.tenant(), request.tool(), request.digest(), request.status()));
        }
        List<ApprovalDecision> all = new ArrayList<>(earlier);
        all.add(decision);
        return ApprovalView.of(request, all);
    }

    /**
     * Expires every request whose time is up, each in a transaction of its own: a request that
     * cannot be expired is logged and counted and never stops the others. Replicas skip the rows
     * another replica is expiring.
     */
    public ExpiryReport expireDue() {
        int expired = 0;
        int failed = 0;
        for (UUID runId : requests.findDue(deadlineClock())) {
            try {
                Boolean done = transactions.execute(status -> expireOne(runId));
                if (Boolean.TRUE.equals(done)) {
                    expired++;
                }
            } catch (RuntimeException e) {
                failed++;
                log.error("Could not expire the approval request of run {}; the others go on", runId, e);
            }
        }
        return new ExpiryReport(expired, failed);
    }

    private boolean expireOne(UUID runId) {
        ApprovalRequest request = requests.lockDueForExpiry(runId).orElse(null);
        if (request == null || !request.expire(deadlineClock())) {
            return false;
        }
        requests.save(request);
        audit.append(
                request.tenant(),
                AuditEventType.APPROVAL_EXPIRED,
                runId,
                "airlock",
                java.util.Map.of("digest", request.digest()),
                clock.instant());
        events.publishEvent(
                new ApprovalClosed(runId, request.tenant(), request.tool(), request.digest(), ApprovalStatus.EXPIRED));
        return true;
    }

    /**
     * What one pass of the expiry job did.
     *
     * @param expired requests expired
     * @param failed  requests that could not be expired (logged; tried again on the next pass)
     */
    public record ExpiryReport(int expired, int failed) {}

    /** The request of a run in one of {@code tenants}, with its decisions. */
    @Transactional(readOnly = true)
    public Optional<ApprovalView> find(UUID runId, Collection<String> tenants) {
        return requests.findByRunIdAndTenantIn(runId, tenants)
                .map(r -> ApprovalView.of(r, decisions.findByRunIdOrderByDecidedAtAsc(runId)));
    }

    /**
     * The pending requests {@code person} (with {@code identity}) may decide: in the tenants where
     * they approve, not of their own agents, not decided by them yet, of {@code tool} and {@code agent}
     * where given; the one that expires first first, at most {@link #WAITING_PAGE} of them.
     */
    @Transactional(readOnly = true)
    public Waiting waitingFor(
            String person,
            String identity,
            Collection<String> approverTenants,
            @Nullable String tool,
            @Nullable String agent) {
        if (approverTenants.isEmpty()) {
            return new Waiting(List.of(), false);
        }
        List<ApprovalView.Request> found =
                requests.waitingFor(approverTenants, person, identity, tool, agent, Limit.of(WAITING_PAGE + 1)).stream()
                        .map(ApprovalView.Request::of)
                        .toList();
        return found.size() > WAITING_PAGE
                ? new Waiting(found.subList(0, WAITING_PAGE), true)
                : new Waiting(found, false);
    }

    /**
     * The requests waiting for one person.
     *
     * @param requests the first {@link #WAITING_PAGE} of them, the one that expires first first
     * @param more     whether more wait than are listed
     */
    public record Waiting(List<ApprovalView.Request> requests, boolean more) {}

    /** Which of {@code runIds} are pending requests {@code person} may decide in {@code approverTenants}. */
    @Transactional(readOnly = true)
    public Set<UUID> waitingAmong(
            String person, String identity, Collection<String> approverTenants, Collection<UUID> runIds) {
        if (approverTenants.isEmpty() || runIds.isEmpty()) {
            return Set.of();
        }
        return Set.copyOf(requests.waitingAmong(approverTenants, person, identity, runIds));
    }

    /** The most requests "Waiting for you" lists; the count says how many there are. */
    public static final int WAITING_PAGE = 200;

    /** How many pending requests {@code person} may decide: one count, however many there are. */
    @Transactional(readOnly = true)
    public long countWaitingFor(String person, String identity, Collection<String> approverTenants) {
        return approverTenants.isEmpty() ? 0 : requests.countWaitingFor(approverTenants, person, identity);
    }

    /** The last request of the tool in the tenant that people approved, other than {@code runId}'s. */
    @Transactional(readOnly = true)
    public Optional<ApprovalView.Request> lastApproved(String tenant, String tool, UUID runId) {
        return requests.findFirstByTenantAndToolAndStatusAndRunIdNotOrderByClosedAtDesc(
                        tenant, tool, ApprovalStatus.APPROVED, runId)
                .map(ApprovalView.Request::of);
    }

    /** The most requests one page of {@link #list} holds. */
    public static final int MAX_PAGE = 500;

    /** Before every request: the start of the first page (cursors name times within the years 1 to 9999). */
    private static final RunQuery.Cursor FIRST =
            new RunQuery.Cursor(Instant.parse("+10000-01-01T00:00:00Z"), new UUID(-1, -1));

    /**
     * One page of the requests in {@code tenants}, newest first: pending only, or all; of one tool and
     * one agent only where given; after {@code after} (the {@code next} of the page before, null for
     * the first), at most {@code limit} (1 to {@link #MAX_PAGE}).
     */
    @Transactional(readOnly = true)
    public Page list(
            Collection<String> tenants,
            boolean pendingOnly,
            @Nullable String tool,
            @Nullable String agent,
            RunQuery.@Nullable Cursor after,
            int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_PAGE);
        }
        if (tenants.isEmpty()) {
            return new Page(List.of(), null);
        }
        RunQuery.Cursor from = after == null ? FIRST : after;
        List<ApprovalRequest> found = requests.pageBefore(
                tenants,
                pendingOnly ? List.of(ApprovalStatus.PENDING) : List.of(ApprovalStatus.values()),
                tool,
                agent,
                from.createdAt(),
                from.id(),
                Limit.of(limit + 1));
        List<ApprovalView.Request> page =
                found.stream().limit(limit).map(ApprovalView.Request::of).toList();
        RunQuery.@Nullable Cursor next = found.size() > limit
                ? new RunQuery.Cursor(page.getLast().createdAt(), page.getLast().runId())
                : null;
        return new Page(page, next);
    }

    /**
     * One page of requests.
     *
     * @param requests the requests, newest first
     * @param next     where the next page starts, or null when this is the last
     */
    public record Page(List<ApprovalView.Request> requests, RunQuery.@Nullable Cursor next) {}
}
