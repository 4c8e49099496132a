package dev.airlock.kernel.problem;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** 400: the request is well-formed JSON but asks for something invalid. */
public final class InvalidRequest extends ApiProblem {

    private static final long serialVersionUID = 1L;

    private InvalidRequest(@Nullable String detail) {
        super(400, "invalid-request", "Invalid request", detail);
    }

    /** The arguments do not fit the tool's parameters; every error is listed. */
    public static InvalidRequest arguments(String tool, List<String> errors) {
        InvalidRequest problem =
                new InvalidRequest("Arguments for tool '" + tool + "' are invalid: " + String.join("; ", errors));
        problem.with("errors", List.copyOf(errors));
        return problem;
    }

    /** The agent's tenant has no such tool. */
    public static InvalidRequest unknownTool(String tool, List<String> available) {
        return (InvalidRequest) new InvalidRequest("Unknown tool '" + tool + "'. Tools you may call: " + available)
                .with("tools", available);
    }

    /** A field a person typed is over its bound; the problem names the field, never the text. */
    public static InvalidRequest tooLong(String field, String detail) {
        return (InvalidRequest) new InvalidRequest(detail).with("field", field);
    }

    /** Anything else, with its reason. */
    public static InvalidRequest because(@Nullable String detail) {
        return new InvalidRequest(detail);
    }
}
