package dev.airlock.gateway.support;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.approval.request.Approver;
import dev.airlock.persistence.approval.Verdict;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Decisions recorded the way the console records them, for tests that need a closed request quickly. */
public final class Decisions {

    private Decisions() {}

    /**
     * Records {@code person}'s decision on the pending request of {@code runId}, in the console's
     * database scope over {@code tenant}, naming the digest the request shows.
     */
    public static void decide(
            ApprovalService approvals, String person, String tenant, UUID runId, Verdict verdict, String reason) {
        try (var scope = DatabaseScope.of(DatabaseRole.CONSOLE, List.of(tenant)).open()) {
            String digest = approvals
                    .find(runId, Set.of(tenant))
                    .orElseThrow()
                    .request()
                    .digest();
            approvals.decide(
                    new Approver(person, "password:" + person, Set.of(tenant)), runId, verdict, reason, digest);
        }
    }
}
