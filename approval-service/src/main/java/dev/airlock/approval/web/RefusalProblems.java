package dev.airlock.approval.web;

import dev.airlock.approval.grant.GrantRefused;
import dev.airlock.approval.input.HumanText;
import dev.airlock.approval.request.DecisionRefused;
import dev.airlock.approval.request.NotAnApprover;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The people's side's refusals as problem details: a decision or a raw-access grant refused (with
 * the reason a person can act on), a run the person may not decide on (404, as if it did not
 * exist), and text typed past its bound (400 naming the field). Ahead of the application's
 * handler, which renders every other problem.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class RefusalProblems {

    @ExceptionHandler(DecisionRefused.class)
    ResponseEntity<ProblemDetail> decisionRefused(DecisionRefused refused) {
        ProblemDetail problem =
                problem(HttpStatus.CONFLICT, "decision-refused", "Decision refused", refused.getMessage());
        problem.setProperty("reason", refused.reason().name());
        return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
    }

    @ExceptionHandler(GrantRefused.class)
    ResponseEntity<ProblemDetail> grantRefused(GrantRefused refused) {
        HttpStatus status = switch (refused.reason()) {
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case REASON_REQUIRED -> HttpStatus.BAD_REQUEST;
            case NOT_USABLE, EXPIRED -> HttpStatus.FORBIDDEN;
            case PURGED -> HttpStatus.GONE;
            case SELF_APPROVAL, ALREADY_DECIDED -> HttpStatus.CONFLICT;
        };
        ProblemDetail problem = problem(status, "raw-grant-refused", "Raw access refused", refused.getMessage());
        problem.setProperty("reason", refused.reason().name());
        return ResponseEntity.status(status).body(problem);
    }

    @ExceptionHandler(HumanText.Refused.class)
    ResponseEntity<ProblemDetail> textRefused(HumanText.Refused e) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
        problem.setProperty("field", e.field());
        return ResponseEntity.badRequest().body(problem);
    }

    @ExceptionHandler(NotAnApprover.class)
    ResponseEntity<ProblemDetail> notAnApprover(NotAnApprover e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .body(problem(HttpStatus.NOT_FOUND, "run-not-found", "Run not found", e.getMessage()));
    }

    /** Airlock's problem body: type {@code urn:airlock:problem:<type>}, a title, and the detail for the caller. */
    private static ProblemDetail problem(HttpStatus status, String type, String title, @Nullable String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create("urn:airlock:problem:" + type));
        problem.setTitle(title);
        return problem;
    }
}
