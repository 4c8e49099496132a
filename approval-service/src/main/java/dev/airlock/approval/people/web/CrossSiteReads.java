package dev.airlock.approval.people.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses, when another site's page sent the browser there, the reads that are recorded as acts of
 * the person who makes them: a raw grant's bytes (hex dump, audit view, download), each a
 * {@code raw.grant.used} event in that person's name. They are GETs (a link to a download must work
 * from the console's own pages), and a GET carries no CSRF token; the browser's
 * {@code Sec-Fetch-Site} header says who started it. A request without the header (not a browser,
 * or an old one) is let through: a personal access token's caller sends none.
 */
final class CrossSiteReads extends OncePerRequestFilter {

    /** Where a request may come from: the console itself, or the person (typed, bookmarked). */
    private static final Set<String> OWN = Set.of("same-origin", "none");

    private static final RequestMatcher RECORDED_READS = new OrRequestMatcher(List.of(
            any("/api/v1/audit/raw-grants/*/hexdump"),
            any("/api/v1/audit/raw-grants/*/audit-view"),
            any("/api/v1/audit/raw-grants/*/download"),
            any("/console/audit/grants/*/hexdump"),
            any("/console/audit/grants/*/audit-view")));

    /** Every method: MVC answers a HEAD with the GET's handler, which records the read all the same. */
    private static RequestMatcher any(String pattern) {
        return PathPatternRequestMatcher.withDefaults().matcher(pattern);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null && !OWN.contains(site) && RECORDED_READS.matches(request)) {
            PeopleProblems.crossSite(response);
            return;
        }
        chain.doFilter(request, response);
    }
}
