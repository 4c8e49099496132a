package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The database's outage seen before any controller (a security filter checking an access token or
 * a sign-in's lock-out): the same {@code 503 database-unavailable} problem with {@code Retry-After}
 * that {@link ProblemHandler} answers inside MVC, instead of a 500 with the container's error page.
 * Any other failure goes on as before. Outside every other filter (the security filters among them).
 */
@org.springframework.stereotype.Component
@org.springframework.core.annotation.Order(org.springframework.core.Ordered.HIGHEST_PRECEDENCE + 5)
public final class DatabaseOutages extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(DatabaseOutages.class);

    private final io.micrometer.core.instrument.Counter databaseErrors;

    DatabaseOutages(io.micrometer.core.instrument.MeterRegistry meters) {
        this.databaseErrors = ProblemHandler.databaseErrors(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (RuntimeException | ServletException e) {
            if (!isOutage(e) || response.isCommitted()) {
                throw e;
            }
            log.warn("Database unavailable on {}: {}", request.getRequestURI(), e.getMessage());
            databaseErrors.increment();
            Unavailable problem = Unavailable.database();
            response.resetBuffer();
            response.setStatus(problem.status());
            problem.headers().forEach(response::setHeader);
            response.setContentType(ProblemJson.MEDIA_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter()
                    .write(ProblemJson.body(
                            "urn:airlock:problem:" + problem.type(),
                            problem.status(),
                            problem.title(),
                            String.valueOf(problem.getMessage())));
        }
    }

    /** Whether {@code failure} (or a cause) says the database cannot be reached right now. */
    static boolean isOutage(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof org.springframework.dao.DataAccessResourceFailureException
                    || t instanceof org.springframework.dao.TransientDataAccessException
                    || t instanceof org.springframework.transaction.CannotCreateTransactionException
                    || t instanceof org.springframework.dao.RecoverableDataAccessException
                    || t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLException sql
                            && sql.getSQLState() != null
                            && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }
}
