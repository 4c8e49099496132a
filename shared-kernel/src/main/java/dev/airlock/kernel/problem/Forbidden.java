package dev.airlock.kernel.problem;

/** 403: the signed-in person lacks the role this needs. */
public final class Forbidden extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private Forbidden(String detail) {
        super(403, "forbidden", "Forbidden", detail);
    }

    /** The person is not an auditor of the tenant. */
    public static Forbidden notAuditor(String tenant) {
        // Fixed text: the tenant comes from the request, and an error page must not echo what a link chose.
        return new Forbidden("You are not an auditor of that tenant.");
    }

    /** The person is not a tenant administrator of the tenant. */
    public static Forbidden notTenantAdmin(String tenant) {
        return new Forbidden("You are not a tenant administrator of that tenant.");
    }
}
