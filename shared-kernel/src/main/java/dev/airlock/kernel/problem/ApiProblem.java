package dev.airlock.kernel.problem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An error either side reports to its caller: an HTTP status, a problem type, a title and a
 * detail written for the caller that holds no internals, with extension members and response
 * headers. Subclasses are small factories for one kind of problem each. The application renders
 * it as {@code application/problem+json} (type {@code urn:airlock:problem:<type>}); this class holds
 * no web types so that both sides' modules can throw it.
 */
public class ApiProblem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final transient Map<String, Object> properties = new LinkedHashMap<>();
    private final transient Map<String, String> headers = new LinkedHashMap<>();

    /**
     * @param status the HTTP status code
     * @param type   the problem type's last segment, e.g. {@code run-not-found}
     * @param title  the problem type's title
     * @param detail what went wrong, for the caller
     */
    protected ApiProblem(int status, String type, String title, @Nullable String detail) {
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
        headers.put(name, value);
        return this;
    }

    /** The HTTP status code. */
    public int status() {
        return status;
    }

    /** The problem type's last segment; the full type is {@code urn:airlock:problem:} followed by it. */
    public String type() {
        return type;
    }

    /** The problem type's title. */
    public String title() {
        return title;
    }

    /** The extension members, in the order they were added. */
    public Map<String, Object> properties() {
        return Collections.unmodifiableMap(properties);
    }

    /** The response headers to send with the problem. */
    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }
}
