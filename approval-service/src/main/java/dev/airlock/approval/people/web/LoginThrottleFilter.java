package dev.airlock.approval.people.web;

import dev.airlock.approval.people.LoginThrottle;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationSuccessHandler;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Puts the sign-in form behind {@link LoginThrottle}: a locked-out user name or address is sent
 * back to the sign-in page before its password is even looked at, with the same answer whether
 * the password was right or not; failures and successes are recorded by the form's handlers.
 */
final class LoginThrottleFilter extends OncePerRequestFilter {

    static final String USERNAME = "username";

    /**
     * The form login's own request, matched as the form login matches it (the decoded path), so
     * that no spelling of the path reaches the password check without passing the lock-out.
     */
    private static final org.springframework.security.web.util.matcher.RequestMatcher SIGN_IN =
            org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher.withDefaults()
                    .matcher(org.springframework.http.HttpMethod.POST, "/login");

    private final LoginThrottle throttle;

    LoginThrottleFilter(LoginThrottle throttle) {
        this.throttle = throttle;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (SIGN_IN.matches(request)) {
            String username = username(request);
            if (dev.airlock.approval.input.HumanText.firstNotAccepted(username) >= 0) {
                // No one's name holds a control character (and the database stores no NUL): the
                // sign-in fails as for a wrong password, without a look-up.
                response.sendRedirect(request.getContextPath() + "/login?error");
                return;
            }
            if (!throttle.admit(username, request.getRemoteAddr())) {
                response.sendRedirect(request.getContextPath() + "/login?locked");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The user name as the form login reads it (trimmed), so that " carol" counts as "carol". */
    private static String username(HttpServletRequest request) {
        String username = request.getParameter(USERNAME);
        return username == null ? "" : username.trim();
    }

    /** Records the failure, then shows the sign-in page's error. */
    static AuthenticationFailureHandler onFailure(LoginThrottle throttle) {
        return (request, response, exception) -> {
            throttle.failed(username(request), request.getRemoteAddr());
            response.sendRedirect(request.getContextPath() + "/login?error");
        };
    }

    /** Forgets the name's failures, then goes to {@code target}. */
    static AuthenticationSuccessHandler onSuccess(LoginThrottle throttle, String target) {
        SimpleUrlAuthenticationSuccessHandler next = new SimpleUrlAuthenticationSuccessHandler(target);
        next.setAlwaysUseDefaultTargetUrl(true);
        return (request, response, authentication) -> {
            throttle.succeeded(authentication.getName());
            next.onAuthenticationSuccess(request, response, authentication);
        };
    }
}
