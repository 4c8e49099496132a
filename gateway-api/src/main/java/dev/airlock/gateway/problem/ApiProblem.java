package dev.airlock.gateway.problem;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * An error the API reports as {@code application/problem+json}. Subclasses are small factories
 * for one kind of problem each; the detail is written for the caller and holds no internals.
 */
public class ApiProblem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final HttpStatus status;
    private final String type;
    private final String title;
    private final transient Map<String, Object> properties = new LinkedHashMap<>();
    private final HttpHeaders headers = new HttpHeaders();

    protected ApiProblem(HttpStatus status, String type, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
    }

    /** Adds an extension member to the problem. */
    protected ApiProblem with(String name, Object value) {
        properties.put(name, value);
        return this;
    }

    /** Adds a response header. */
    protected ApiProblem header(String name, String value) {
        headers.add(name, value);
        return this;
    }

    public HttpStatus status() {
        return status;
    }

    public HttpHeaders headers() {
        return headers;
    }

    /** The problem as the response body. */
    public ProblemDetail toProblemDetail() {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, getMessage());
        problem.setType(URI.create("urn:airlock:problem:" + type));
        problem.setTitle(title);
        properties.forEach(problem::setProperty);
        return problem;
    }
}
