package dev.airlock.approval.people.web;

import dev.airlock.kernel.problem.ProblemJson;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

/** 401 and 403 on the people's API, written as problem details like every other error. */
final class PeopleProblems {

    private PeopleProblems() {}

    /** 401: a session or a personal access token, never an agent key. */
    static AuthenticationEntryPoint unauthorized() {
        return (request, response, e) -> unauthorized(response);
    }

    private static void unauthorized(HttpServletResponse response) throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer realm=\"airlock\"");
        write(
                response,
                HttpServletResponse.SC_UNAUTHORIZED,
                "Unauthorized",
                "Sign in to the console, or send a personal access token as 'Authorization: Bearer alp_...'.");
    }

    /** 403 for a signed-in person; 401 for a caller who is nobody. */
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
                unauthorized(response);
            }
        };
    }

    /** 401 for a bearer token that authenticates nobody on the humans' side; cookies never stand in for it. */
    static void invalidToken(HttpServletResponse response) throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer realm=\"airlock\", error=\"invalid_token\"");
        write(
                response,
                HttpServletResponse.SC_UNAUTHORIZED,
                "Unauthorized",
                "The bearer token is not a valid, unexpired personal access token for this request.");
    }

    /** 403 for a valid access token whose scopes do not cover the request. */
    static void insufficientScope(HttpServletResponse response, @Nullable String needed) throws IOException {
        response.setHeader("WWW-Authenticate", "Bearer realm=\"airlock\", error=\"insufficient_scope\"");
        write(
                response,
                HttpServletResponse.SC_FORBIDDEN,
                "Forbidden",
                needed == null
                        ? "Access tokens may not make this request; sign in to the console instead."
                        : "This access token lacks the scope '" + needed + "' this request needs.");
    }

    /** 403 for a recorded read that another site's page started ({@link CrossSiteReads}). */
    static void crossSite(HttpServletResponse response) throws IOException {
        write(
                response,
                HttpServletResponse.SC_FORBIDDEN,
                "Forbidden",
                "Raw bytes are read from the console's own pages only; open the grant in the console.");
    }

    private static void write(HttpServletResponse response, int status, String title, String detail)
            throws IOException {
        response.setStatus(status);
        response.setContentType(ProblemJson.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(ProblemJson.body(status, title, detail));
    }
}
