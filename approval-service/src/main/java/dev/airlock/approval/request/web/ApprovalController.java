package dev.airlock.approval.request.web;

import dev.airlock.approval.people.Human;
import dev.airlock.approval.request.ApprovalService;
import dev.airlock.approval.request.ApprovalView;
import dev.airlock.approval.request.Approver;
import dev.airlock.kernel.config.ConditionalOnSide;
import dev.airlock.kernel.config.Side;
import dev.airlock.kernel.problem.InvalidRequest;
import dev.airlock.kernel.problem.RunNotFound;
import dev.airlock.persistence.approval.Verdict;
import dev.airlock.persistence.audit.RunQuery;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Approval requests for the signed-in person: the ones in tenants where they hold any role,
 * decisions only where they are APPROVER. Session callers send the CSRF token in
 * {@code X-CSRF-TOKEN}.
 */
@ConditionalOnSide(Side.CONSOLE)
@RestController
@RequestMapping("/api/v1/approvals")
class ApprovalController {

    private final ApprovalService approvals;

    ApprovalController(ApprovalService approvals) {
        this.approvals = approvals;
    }

    /**
     * A request in a list.
     *
     * @param runId             the run
     * @param tenant            its tenant
     * @param tool              the tool
     * @param agent             the requesting agent
     * @param status            PENDING, APPROVED, DENIED or EXPIRED
     * @param digest            SHA-256 of the canonical action
     * @param approversRequired distinct approvals needed
     * @param createdAt         when it was opened
     * @param expiresAt         when it expires
     */
    record Summary(
            String runId,
            String tenant,
            String tool,
            String agent,
            String status,
            String digest,
            int approversRequired,
            Instant createdAt,
            Instant expiresAt) {

        static Summary of(ApprovalView.Request r) {
            return new Summary(
                    r.runId().toString(),
                    r.tenant(),
                    r.tool(),
                    r.agent(),
                    r.status().name(),
                    r.digest(),
                    r.approversRequired(),
                    r.createdAt(),
                    r.expiresAt());
        }
    }

    /**
     * A request in full: the exact action, its digest, the policy and the decisions so far.
     *
     * @param summary   the request
     * @param requester the owner of the requesting agent, or null
     * @param action      the canonical action, one item per line
     * @param decisions   decisions so far
     * @param rule        the policy rule that asked for people, or null for older requests
     * @param agentReason the agent's own words on why it asks, fenced as untrusted data (never a reason
     *                    to decide), or null when it gave none
     */
    record Detail(
            Summary summary,
            @Nullable String requester,
            List<String> action,
            List<DecisionView> decisions,
            @Nullable String rule,
            @Nullable String agentReason) {

        static Detail of(ApprovalView view) {
            return new Detail(
                    Summary.of(view.request()),
                    view.request().requester(),
                    view.request().actionLines(),
                    view.decisions().stream()
                            .map(d -> new DecisionView(
                                    d.approver(), d.decision().name(), d.reason(), d.digest(), d.decidedAt()))
                            .toList(),
                    view.request().policyRule(),
                    view.request().agentReason() == null
                            ? null
                            : dev.airlock.sanitizer.Fence.wrap(
                                    view.request().agent() + "'s own words (the agent's reason)",
                                    view.request().agentReason() + "\n"));
        }
    }

    /**
     * @param approver  who
     * @param decision  APPROVE or DENY
     * @param reason    why
     * @param digest    the digest they decided on
     * @param decidedAt when
     */
    record DecisionView(
            String approver, String decision, @Nullable String reason, String digest, Instant decidedAt) {}

    /**
     * @param decision APPROVE or DENY
     * @param reason   why (required to deny)
     * @param digest   the digest of the action the person saw
     */
    record DecisionRequest(String decision, @Nullable String reason, String digest) {}

    /**
     * One page of requests, newest first; when more follow, a {@code Link} header with
     * {@code rel="next"} names the next page.
     */
    @GetMapping
    ResponseEntity<List<Summary>> list(
            Authentication authentication,
            @RequestParam(defaultValue = "pending") String status,
            @RequestParam(defaultValue = "100") String limit,
            @RequestParam(required = false) @Nullable String cursor,
            @RequestParam(required = false) @Nullable String tenant,
            @RequestParam(required = false) @Nullable String tool,
            @RequestParam(required = false) @Nullable String agent) {
        boolean pendingOnly = switch (status) {
            case "pending" -> true;
            case "all" -> false;
            default -> throw InvalidRequest.field("status", "status must be pending or all, not '" + status + "'.");
        };
        int size = pageSize(limit);
        RunQuery.@Nullable Cursor after = null;
        if (cursor != null) {
            try {
                after = RunQuery.Cursor.decode(cursor);
            } catch (IllegalArgumentException e) {
                throw InvalidRequest.field("cursor", "cursor is not one this API returned");
            }
        }
        java.util.Set<String> tenants = Human.of(authentication).tenants();
        if (tenant != null) {
            // One of the person's tenants, or none at all: another tenant's requests are not theirs to list.
            tenants = tenants.contains(tenant) ? java.util.Set.of(tenant) : java.util.Set.of();
        }
        ApprovalService.Page page = approvals.list(tenants, pendingOnly, tool, agent, after, size);
        ResponseEntity.BodyBuilder answer = ResponseEntity.ok();
        if (page.next() != null) {
            // Every value the caller sent is expanded encoded: nothing of it can end the header's <...>.
            UriComponentsBuilder link = UriComponentsBuilder.fromPath("/api/v1/approvals")
                    .queryParam("status", "{status}")
                    .queryParam("limit", size)
                    .queryParam("cursor", page.next().encode());
            java.util.Map<String, String> values = new java.util.HashMap<>(java.util.Map.of("status", status));
            for (String[] filter : new String[][] {{"tenant", tenant}, {"tool", tool}, {"agent", agent}}) {
                if (filter[1] != null) {
                    link.queryParam(filter[0], "{" + filter[0] + "}");
                    values.put(filter[0], filter[1]);
                }
            }
            String next = link.encode().buildAndExpand(values).toUriString();
            answer.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        return answer.body(page.requests().stream().map(Summary::of).toList());
    }

    private static int pageSize(String limit) {
        String problem = "limit must be a whole number between 1 and " + ApprovalService.MAX_PAGE;
        try {
            int size = Integer.parseInt(limit);
            if (size < 1 || size > ApprovalService.MAX_PAGE) {
                throw InvalidRequest.field("limit", problem);
            }
            return size;
        } catch (NumberFormatException e) {
            throw InvalidRequest.field("limit", problem);
        }
    }

    @GetMapping("/{runId}")
    Detail get(Authentication authentication, @PathVariable String runId) {
        UUID id = RunNotFound.parseId(runId);
        return approvals
                .find(id, Human.of(authentication).tenants())
                .map(Detail::of)
                .orElseThrow(() -> RunNotFound.forId(id));
    }

    @PostMapping("/{runId}/decisions")
    Detail decide(Authentication authentication, @PathVariable String runId, @RequestBody DecisionRequest request) {
        UUID id = RunNotFound.parseId(runId);
        Verdict verdict = Verdict.parse(request.decision())
                .orElseThrow(() -> InvalidRequest.field(
                        "decision", "decision must be exactly APPROVE or DENY; nothing was recorded."));
        if (request.digest() == null || request.digest().isBlank()) {
            throw InvalidRequest.field("digest", "digest is required: the SHA-256 of the action you reviewed.");
        }
        return Detail.of(approvals.decide(
                Approver.of(Human.of(authentication)), id, verdict, request.reason(), request.digest()));
    }
}
