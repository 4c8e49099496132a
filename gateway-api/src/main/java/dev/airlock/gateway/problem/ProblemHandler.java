package dev.airlock.gateway.problem;

import dev.airlock.kernel.problem.ApiProblem;
import dev.airlock.kernel.problem.InvalidRequest;
import org.jspecify.annotations.Nullable;
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

    private final io.micrometer.core.instrument.Counter databaseErrors;

    ProblemHandler(io.micrometer.core.instrument.MeterRegistry meters) {
        this.databaseErrors = databaseErrors(meters);
    }

    /** {@code airlock.database.errors}: requests answered 503 because the database could not be reached. */
    static io.micrometer.core.instrument.Counter databaseErrors(io.micrometer.core.instrument.MeterRegistry meters) {
        return io.micrometer.core.instrument.Counter.builder("airlock.database.errors")
                .description("Requests answered 503 because the database could not be reached")
                .register(meters);
    }

    @ExceptionHandler(ApiProblem.class)
    ResponseEntity<ProblemDetail> apiProblem(ApiProblem problem) {
        ProblemDetail body =
                problem(HttpStatus.valueOf(problem.status()), problem.type(), problem.title(), problem.getMessage());
        problem.properties().forEach(body::setProperty);
        HttpHeaders headers = new HttpHeaders();
        problem.headers().forEach(headers::add);
        return ResponseEntity.status(problem.status()).headers(headers).body(body);
    }

    /** A header or path the firewall refuses when it is read (a control character, say): the client's fault. */
    @ExceptionHandler(org.springframework.security.web.firewall.RequestRejectedException.class)
    ResponseEntity<ProblemDetail> rejected(org.springframework.security.web.firewall.RequestRejectedException e) {
        return apiProblem(InvalidRequest.because(
                "The request carries a header or path Airlock does not accept (control or undecodable characters)."));
    }

    /** Airlock's problem body: type {@code urn:airlock:problem:<type>}, a title, and the detail for the caller. */
    private static ProblemDetail problem(HttpStatus status, String type, String title, @Nullable String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(java.net.URI.create("urn:airlock:problem:" + type));
        problem.setTitle(title);
        return problem;
    }

    /**
     * The database cannot be reached (down, failing over, pool exhausted; which failures say so is
     * {@link DatabaseOutages#isOutage}'s to tell): a 503 the client can retry, never a 500. Counted
     * in {@code airlock.database.errors}.
     */
    private ResponseEntity<ProblemDetail> databaseUnavailable(Exception e, WebRequest request) {
        log.warn("Database unavailable on {}: {}", request.getDescription(false), e.getMessage());
        databaseErrors.increment();
        return apiProblem(Unavailable.database());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, WebRequest request) {
        if (DatabaseOutages.isOutage(e)) {
            return databaseUnavailable(e, request);
        }
        log.error("Unexpected error on {}", request.getDescription(false), e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.INTERNAL_SERVER_ERROR, "Airlock could not complete the request; the error is logged.");
        problem.setTitle("Internal error");
        return ResponseEntity.internalServerError().body(problem);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof dev.airlock.gateway.http.RequestBodyLimit.TooLarge tooLarge) {
                return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
                        .body(problem(
                                HttpStatus.CONTENT_TOO_LARGE,
                                "body-too-large",
                                "Request body too large",
                                tooLarge.getMessage()));
            }
            if (t instanceof dev.airlock.gateway.http.StrictUtf8.NotUtf8 notUtf8) {
                return ResponseEntity.badRequest()
                        .body(problem(
                                HttpStatus.BAD_REQUEST, "invalid-request", "Malformed request", notUtf8.getMessage()));
            }
        }
        var duplicate = dev.airlock.gateway.http.BoundedJson.duplicateKey(ex);
        if (duplicate.isPresent()) {
            return malformedField(
                    duplicate.get(), "The request body gives the key '" + duplicate.get() + "' twice in one object.");
        }
        var unknown = dev.airlock.gateway.http.BoundedJson.unknownField(ex);
        if (unknown.isPresent()) {
            return malformedField(
                    unknown.get().name(),
                    "The request body has a field '" + unknown.get().name() + "' this request does not take; it takes "
                            + unknown.get().known() + ".");
        }
        if (dev.airlock.gateway.http.BoundedJson.pastABound(ex)) {
            return ResponseEntity.badRequest()
                    .body(problem(
                            HttpStatus.BAD_REQUEST,
                            "invalid-request",
                            "Malformed request",
                            "The request body's JSON is nested too deeply, or has a string, number or key too long (at most "
                                    + dev.airlock.gateway.http.BoundedJson.MAX_NESTING + " levels, "
                                    + dev.airlock.gateway.http.BoundedJson.MAX_NUMBER_LENGTH + " digits, "
                                    + dev.airlock.gateway.http.BoundedJson.MAX_NAME_LENGTH + " characters per key)."));
        }
        var mismatched = dev.airlock.gateway.http.BoundedJson.mismatchedField(ex);
        if (mismatched.isPresent()) {
            return malformedField(
                    mismatched.get(),
                    "The request body's field '" + mismatched.get() + "' has the wrong JSON type for this request"
                            + " (a string, number, boolean, object or array where another is expected).");
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(
                HttpStatus.BAD_REQUEST, "The request body is not valid JSON of the expected shape.");
        problem.setTitle("Malformed request");
        return ResponseEntity.badRequest().body(problem);
    }

    /** A query parameter bound to a form (the audit filters) that does not convert: a 400 naming it. */
    @Override
    protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(
            org.springframework.web.bind.MethodArgumentNotValidException ex,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        org.springframework.validation.FieldError error = ex.getBindingResult().getFieldError();
        if (error == null) {
            return super.handleMethodArgumentNotValid(ex, headers, status, request);
        }
        return invalidField(error.getField());
    }

    /** A query parameter or path segment that does not convert to its type: a 400 naming it. */
    @Override
    protected @Nullable ResponseEntity<Object> handleTypeMismatch(
            org.springframework.beans.TypeMismatchException ex,
            HttpHeaders headers,
            HttpStatusCode status,
            WebRequest request) {
        String name = ex instanceof org.springframework.web.method.annotation.MethodArgumentTypeMismatchException m
                ? m.getName()
                : ex.getPropertyName();
        if (name == null) {
            return super.handleTypeMismatch(ex, headers, status, request);
        }
        return invalidField(name);
    }

    private static ResponseEntity<Object> invalidField(String field) {
        return fieldProblem(
                "Invalid request",
                field,
                "Parameter '" + field + "' is not of the expected type (a whole number, a run id, ...).");
    }

    /** A 400 for a body whose JSON names {@code field} wrongly, naming it. */
    private static ResponseEntity<Object> malformedField(String field, String detail) {
        return fieldProblem("Malformed request", field, detail);
    }

    /** A 400 {@code invalid-request} naming {@code field} in its {@code field} member. */
    private static ResponseEntity<Object> fieldProblem(String title, String field, String detail) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "invalid-request", title, detail);
        problem.setProperty("field", field);
        return ResponseEntity.badRequest().body(problem);
    }
}
