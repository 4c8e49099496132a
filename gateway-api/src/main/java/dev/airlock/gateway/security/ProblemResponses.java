package dev.airlock.gateway.security;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/** 401 and 403 from the agent side's and the application's security filters, as problem details like every other error. */
final class ProblemResponses {

    private ProblemResponses() {}

    private static final String SEND_AGENT_KEY = "Send a valid agent key as 'Authorization: Bearer <key>'.";

    static AuthenticationEntryPoint unauthorized() {
        return unauthorized(SEND_AGENT_KEY);
    }

    /** 401 where nothing but health probes, the API document and scrapes with their token are open. */
    static AuthenticationEntryPoint unauthorizedElsewhere() {
        return unauthorized("Authentication required.");
    }

    private static AuthenticationEntryPoint unauthorized(String detail) {
        return (request, response, e) -> unauthorized(response, detail);
    }

    private static void unauthorized(HttpServletResponse response, String detail) throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer realm=\"airlock\"");
        write(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized", detail);
    }

    /** 403 for a caller who is someone (an agent, a signed-in person); 401 for a caller who is nobody. */
    /**
     * 400 for a request the firewall refuses (a percent-encoded path, a header it does not accept),
     * as problem+json; the detail names what is refused, never the request's own text.
     */
    static org.springframework.security.web.firewall.RequestRejectedHandler rejected() {
        return (request, response, e) -> write(
                response,
                HttpServletResponse.SC_BAD_REQUEST,
                "Bad Request",
                "The request was rejected: its path holds a percent-encoded character, or its path or a"
                        + " header holds characters Airlock does not accept.");
    }

    static AccessDeniedHandler forbidden() {
        AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();
        return (request, response, e) -> {
            var authentication = SecurityContextHolder.getContext().getAuthentication();
            if (authentication != null && authentication.isAuthenticated() && !trust.isAnonymous(authentication)) {
                write(
                        response,
                        HttpServletResponse.SC_FORBIDDEN,
                        "Forbidden",
                        "This request is not allowed (for a console session: send the CSRF token in X-CSRF-TOKEN).");
            } else {
                unauthorized(response, SEND_AGENT_KEY);
            }
        };
    }

    private static void write(HttpServletResponse response, int status, String title, String detail)
            throws IOException {
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(dev.airlock.kernel.problem.ProblemJson.body(status, title, detail));
    }
}
