package dev.airlock.gateway.problem;

import dev.airlock.approval.request.NotAnApprover;
import dev.airlock.persistence.approval.DecisionRefused;
import dev.airlock.approval.grant.GrantRefused;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Renders every API error as problem details: Airlock's own problems as they are, Spring MVC's
 * with its standard statuses, and anything unexpected as a 500 that says nothing of internals
 * (the cause is logged with the request's path).
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        return ResponseEntity.status(problem.status()).headers(problem.headers()).body(problem.toProblemDetail());
    }

    @ExceptionHandler(DecisionRefused.class)
    ResponseEntity<ProblemDetail> decisionRefused(DecisionRefused refused) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, refused.getMessage());
        problem.setType(java.net.URI.create("urn:airlock:problem:decision-refused"));
        problem.setTitle("Decision refused");
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
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, refused.getMessage());
        problem.setType(java.net.URI.create("urn:airlock:problem:raw-grant-refused"));
        problem.setTitle("Raw access refused");
        problem.setProperty("reason", refused.reason().name());
        return ResponseEntity.status(status).body(problem);
    }

    @ExceptionHandler(dev.airlock.approval.input.HumanText.TextTooLong.class)
    ResponseEntity<ProblemDetail> textTooLong(dev.airlock.approval.input.HumanText.TextTooLong e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setType(java.net.URI.create("urn:airlock:problem:invalid-request"));
        problem.setTitle("Invalid request");
        problem.setProperty("field", e.field());
        return ResponseEntity.badRequest().body(problem);
    }

    @ExceptionHandler(NotAnApprover.class)
    ResponseEntity<ProblemDetail> notAnApprover(NotAnApprover e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setType(java.net.URI.create("urn:airlock:problem:run-not-found"));
        problem.setTitle("Run not found");
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, WebRequest request) {
        log.error("Unexpected error on {}", request.getDescription(false), e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "Airlock could not complete the request; the error is logged.");
        problem.setTitle("Internal error");
        return ResponseEntity.internalServerError().body(problem);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "The request body is not valid JSON of the expected shape.");
        problem.setTitle("Malformed request");
        return ResponseEntity.badRequest().body(problem);
    }
}
