package dev.airlock.approval.people;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a personal access token may do. A token request is allowed only when the path and method
 * need a scope the token carries; every path not listed here is refused to tokens.
 */
public enum TokenScope {
    /** List and read approval requests. */
    APPROVALS_READ("approvals:read"),
    /** Decide on approval requests. */
    APPROVALS_DECIDE("approvals:decide"),
    /** Query runs, reports, events, exports and the chain verification. */
    AUDIT_READ("audit:read"),
    /** Ask for, decide on and use raw-access grants. */
    RAW_ACCESS("raw:access");

    private final String text;

    TokenScope(String text) {
        this.text = text;
    }

    /** The scope's name, as stored and shown. */
    public String text() {
        return text;
    }

    /** The scope named {@code text} exactly, if there is one. */
    public static Optional<TokenScope> parse(String text) {
        return Arrays.stream(values()).filter(s -> s.text.equals(text)).findFirst();
    }

    /**
     * The scope a token needs for {@code method} on {@code path}; empty when tokens may not make
     * that request at all (legal holds, the console, anything unknown).
     */
    public static Optional<TokenScope> requiredFor(String method, String path) {
        if (path.equals("/api/v1/approvals") || path.startsWith("/api/v1/approvals/")) {
            return switch (method) {
                case "GET", "HEAD" -> Optional.of(APPROVALS_READ);
                case "POST" -> path.endsWith("/decisions") ? Optional.of(APPROVALS_DECIDE) : Optional.empty();
                default -> Optional.empty();
            };
        }
        if (path.startsWith("/api/v1/audit/")) {
            if (path.contains("/raw-grants")) {
                return method.equals("GET") || method.equals("HEAD") || method.equals("POST")
                        ? Optional.of(RAW_ACCESS)
                        : Optional.empty();
            }
            if (path.endsWith("/legal-hold")) {
                return Optional.empty();
            }
            return method.equals("GET") || method.equals("HEAD") ? Optional.of(AUDIT_READ) : Optional.empty();
        }
        return Optional.empty();
    }
}
