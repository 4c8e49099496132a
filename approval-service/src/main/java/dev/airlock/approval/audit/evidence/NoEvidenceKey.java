package dev.airlock.approval.audit.evidence;

import dev.airlock.kernel.problem.ApiProblem;

/** The tenant has no evidence signing key configured: nothing unsigned is ever exported. */
public final class NoEvidenceKey extends ApiProblem {

    private static final long serialVersionUID = 1L;

    public NoEvidenceKey(String tenant) {
        super(
                409,
                "no-evidence-key",
                "No evidence signing key",
                "Tenant " + tenant + " has no evidence signing key (airlock.tenants." + tenant
                        + ".evidence.signing-key); evidence bundles are only exported signed.");
    }
}
