package dev.airlock.gateway.mcp;

import dev.airlock.gateway.run.OutputExcerpt;
import dev.airlock.gateway.tool.ToolCompiler;
import dev.airlock.persistence.run.StreamName;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Airlock's own MCP tools, which every tenant has and no tenant tool may be named like
 * ({@value ToolCompiler#RESERVED_PREFIX}...): reading a run, an excerpt of its output, and
 * cancelling it. Their arguments are checked here, every error reported at once, in the words
 * the REST API uses for tool arguments.
 */
final class BuiltInTools {

    static final String STATUS = ToolCompiler.RESERVED_PREFIX + "status";
    static final String OUTPUT = ToolCompiler.RESERVED_PREFIX + "output";
    static final String CANCEL = ToolCompiler.RESERVED_PREFIX + "cancel";

    private static final Pattern RUN_ID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final long maxWaitSeconds;

    BuiltInTools(Duration callWait) {
        this.maxWaitSeconds = callWait.toSeconds();
    }

    static boolean isBuiltIn(String name) {
        return STATUS.equals(name) || OUTPUT.equals(name) || CANCEL.equals(name);
    }

    /** The built-in tools as {@code tools/list} shows them. */
    List<McpSchema.Tool> tools(Map<String, Object> envelope, Map<String, Object> excerpt) {
        return List.of(
                McpSchema.Tool.builder(
                                STATUS,
                                object(
                                        orderedOf(
                                                "runId",
                                                runId(),
                                                "wait",
                                                integer(
                                                        "seconds to wait for the run to end before answering (at most "
                                                                + maxWaitSeconds + ")",
                                                        0L,
                                                        maxWaitSeconds,
                                                        maxWaitSeconds)),
                                        List.of("runId")))
                        .description(
                                "Returns the envelope of one of your runs: its state, approval, exit status and output."
                                        + " Waits up to `wait` seconds (default and at most " + maxWaitSeconds
                                        + ") for the run to"
                                        + " end. Use it with the run id of a call that answered while waiting for approval or still"
                                        + " running; call it again while the state is PENDING_APPROVAL, APPROVED or RUNNING.")
                        .outputSchema(envelope)
                        .annotations(new McpSchema.ToolAnnotations(null, true, null, null, false, null))
                        .build(),
                McpSchema.Tool.builder(
                                OUTPUT,
                                object(
                                        orderedOf(
                                                "runId",
                                                runId(),
                                                "stream",
                                                Map.of(
                                                        "type",
                                                        "string",
                                                        "enum",
                                                        List.of("stdout", "stderr"),
                                                        "description",
                                                        "which stream"),
                                                "from",
                                                integer("first line (1-based), default 1", 1L, null, null),
                                                "to",
                                                integer(
                                                        "last line, inclusive; default from + "
                                                                + (OutputExcerpt.MAX_LINES - 1)
                                                                + ", or the last line with grep",
                                                        1L,
                                                        null,
                                                        null),
                                                "grep",
                                                Map.of(
                                                        "type",
                                                        "string",
                                                        "minLength",
                                                        1,
                                                        "maxLength",
                                                        OutputExcerpt.MAX_GREP,
                                                        "description",
                                                        "only lines containing this text (plain text, not a pattern)")),
                                        List.of("runId", "stream")))
                        .description(
                                "Returns lines of the sanitized output of one of your runs, by line range or search"
                                        + " term, at most " + OutputExcerpt.MAX_LINES
                                        + " lines at a time, fenced as data. Use it"
                                        + " for output a call cut short.")
                        .outputSchema(excerpt)
                        .annotations(new McpSchema.ToolAnnotations(null, true, null, null, false, null))
                        .build(),
                McpSchema.Tool.builder(CANCEL, object(Map.of("runId", runId()), List.of("runId")))
                        .description(
                                "Cancels one of your runs that has not ended: a run waiting for approval is withdrawn,"
                                        + " a running one has its processes killed. Returns the run's envelope.")
                        .outputSchema(envelope)
                        .annotations(new McpSchema.ToolAnnotations(null, false, true, true, false, null))
                        .build());
    }

    /**
     * Checked arguments of a built-in tool.
     *
     * @param runId  the run named
     * @param waitFor airlock_status: how long to wait
     * @param stream airlock_output: which stream
     * @param from   airlock_output: first line, or null
     * @param to     airlock_output: last line, or null
     * @param grep   airlock_output: search term, or null
     */
    record Arguments(
            @Nullable UUID runId,
            Duration waitFor,
            @Nullable StreamName stream,
            @Nullable Integer from,
            @Nullable Integer to,
            @Nullable String grep) {}

    /** The arguments of {@code tool}, or every error in them. */
    Arguments check(String tool, @Nullable Map<String, Object> arguments, List<String> errors) {
        Map<String, Object> given = arguments == null ? Map.of() : arguments;
        List<String> allowed = switch (tool) {
            case STATUS -> List.of("runId", "wait");
            case OUTPUT -> List.of("runId", "stream", "from", "to", "grep");
            default -> List.of("runId");
        };
        for (String name : new TreeSet<>(given.keySet())) {
            if (!allowed.contains(name)) {
                errors.add("arguments." + name + ": unknown parameter; parameters are " + new TreeSet<>(allowed));
            }
        }
        UUID runId = null;
        Object rawId = given.get("runId");
        if (rawId == null) {
            errors.add("arguments.runId: required");
        } else if (!(rawId instanceof String s) || !RUN_ID.matcher(s).matches()) {
            errors.add("arguments.runId: must be a run id such as 0193e0f4-6b8a-7c1d-9e2f-3a4b5c6d7e8f");
        } else {
            runId = UUID.fromString(s);
        }
        Duration wait = Duration.ZERO;
        StreamName stream = null;
        Integer from = null;
        Integer to = null;
        String grep = null;
        if (STATUS.equals(tool)) {
            Integer seconds = integerArgument(given, "wait", 0, maxWaitSeconds, errors);
            wait = Duration.ofSeconds(seconds == null ? maxWaitSeconds : seconds);
        }
        if (OUTPUT.equals(tool)) {
            Object rawStream = given.get("stream");
            if (rawStream == null) {
                errors.add("arguments.stream: required");
            } else {
                stream = rawStream instanceof String s ? StreamName.fromKey(s).orElse(null) : null;
                if (stream == null) {
                    errors.add("arguments.stream: must be one of [stdout, stderr]");
                }
            }
            from = integerArgument(given, "from", 1, Integer.MAX_VALUE, errors);
            to = integerArgument(given, "to", 1, Integer.MAX_VALUE, errors);
            Object rawGrep = given.get("grep");
            if (rawGrep != null && !(rawGrep instanceof String)) {
                errors.add("arguments.grep: must be a string");
            } else {
                grep = (String) rawGrep;
            }
        }
        return new Arguments(runId, wait, stream, from, to, grep);
    }

    private static @Nullable Integer integerArgument(
            Map<String, Object> given, String name, long min, long max, List<String> errors) {
        Object raw = given.get(name);
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte)) {
            errors.add("arguments." + name + ": must be an integer");
            return null;
        }
        long value = ((Number) raw).longValue();
        if (value < min) {
            errors.add("arguments." + name + ": must be at least " + min);
            return null;
        }
        if (value > max) {
            errors.add("arguments." + name + ": must be at most " + max);
            return null;
        }
        return (int) value;
    }

    private static Map<String, Object> runId() {
        return orderedOf(
                "type",
                "string",
                "description",
                "the run id a call answered with",
                "pattern",
                "^" + RUN_ID.pattern() + "$",
                "maxLength",
                36);
    }

    private static Map<String, Object> integer(
            String description, @Nullable Long minimum, @Nullable Long maximum, @Nullable Long defaultValue) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "integer");
        schema.put("description", description);
        if (minimum != null) {
            schema.put("minimum", minimum);
        }
        if (maximum != null) {
            schema.put("maximum", maximum);
        }
        if (defaultValue != null) {
            schema.put("default", defaultValue);
        }
        return schema;
    }

    private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        return dev.airlock.gateway.tool.Tool.objectSchema(properties, required);
    }

    private static Map<String, Object> orderedOf(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
