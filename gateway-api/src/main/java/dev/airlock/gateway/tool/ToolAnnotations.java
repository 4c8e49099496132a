package dev.airlock.gateway.tool;

import org.jspecify.annotations.Nullable;

/**
 * What a tool's configuration tells MCP clients about it (the MCP tool annotations). Hints for
 * clients only: Airlock's policy, not these, decides what runs. A null hint is not stated.
 *
 * @param readOnlyHint    the tool changes nothing
 * @param destructiveHint the tool may destroy or overwrite
 * @param idempotentHint  repeating a call with the same arguments has no further effect
 * @param openWorldHint   the tool reaches systems outside the tenant's own
 */
public record ToolAnnotations(
        @Nullable Boolean readOnlyHint,
        @Nullable Boolean destructiveHint,
        @Nullable Boolean idempotentHint,
        @Nullable Boolean openWorldHint) {

    /** No hint stated. */
    public static final ToolAnnotations NONE = new ToolAnnotations(null, null, null, null);

    /** Whether no hint is stated. */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** The stated hints by their MCP names, in the protocol's order. */
    public java.util.Map<String, Boolean> stated() {
        java.util.Map<String, Boolean> hints = new java.util.LinkedHashMap<>();
        if (readOnlyHint != null) {
            hints.put("readOnlyHint", readOnlyHint);
        }
        if (destructiveHint != null) {
            hints.put("destructiveHint", destructiveHint);
        }
        if (idempotentHint != null) {
            hints.put("idempotentHint", idempotentHint);
        }
        if (openWorldHint != null) {
            hints.put("openWorldHint", openWorldHint);
        }
        return java.util.Collections.unmodifiableMap(hints);
    }
}
