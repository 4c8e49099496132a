package dev.airlock.approval.people.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Ends a person's session a fixed time after they signed in ({@code airlock.login.session-max-age}),
 * however active it is: the roles an OpenID Connect provider gave at sign-in are kept for the
 * session, so a role taken away there ends with the session at the latest. The time is taken on the
 * first request a sign-in serves (the one after the sign-in's redirect), again for each new sign-in
 * in the same session; an ended session is
 * invalidated and the request goes on as nobody's (a 401 on the API, the sign-in page on the
 * console). Requests with a personal access token carry no session and are not touched.
 */
final class SessionLifetime extends OncePerRequestFilter {

    /** The session attribute holding its sign-in ({@link SignIn}). */
    static final String SIGNED_IN_AT = SessionLifetime.class.getName() + ".signedInAt";

    /**
     * A sign-in and when its session first served it.
     *
     * @param person the authentication the sign-in made (the same object on every request of the session)
     * @param at     when
     */
    record SignIn(Authentication person, Instant at) implements java.io.Serializable {}

    private static final Logger log = LoggerFactory.getLogger(SessionLifetime.class);

    private final Duration maxAge;
    private final Clock clock;

    SessionLifetime(Duration maxAge, Clock clock) {
        this.maxAge = maxAge;
        this.clock = clock;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        HttpSession session = request.getSession(false);
        Authentication person = SecurityContextHolder.getContext().getAuthentication();
        if (session != null
                && person != null
                && person.isAuthenticated()
                && !(person instanceof AnonymousAuthenticationToken)) {
            Instant now = clock.instant();
            // Recorded with the sign-in it belongs to: a new sign-in in the same session (the session is kept,
            // under a new id) is timed from itself, not from the one before.
            if (!(session.getAttribute(SIGNED_IN_AT) instanceof SignIn signIn) || signIn.person() != person) {
                session.setAttribute(SIGNED_IN_AT, new SignIn(person, now));
            } else if (Duration.between(signIn.at(), now).compareTo(maxAge) > 0) {
                log.info(
                        "The session of {} ended: signed in at {}, more than {} ago",
                        person.getName(),
                        signIn.at(),
                        maxAge);
                session.invalidate();
                SecurityContextHolder.clearContext();
            }
        }
        chain.doFilter(request, response);
    }
}
