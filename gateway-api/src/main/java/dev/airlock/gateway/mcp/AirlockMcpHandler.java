package dev.airlock.gateway.mcp;

import dev.airlock.gateway.tenant.AgentIdentity;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import reactor.core.publisher.Mono;

/**
 * Answers the JSON-RPC messages of the MCP endpoint for the agent the security chain
 * authenticated. It stands in for the SDK's stateless server, whose tool list is one list for
 * every caller: here each agent sees, and may call, only its own tenant's tools. Every request
 * gets an answer; anything unexpected is logged and answered with a JSON-RPC internal error that
 * says nothing of internals.
 */
final class AirlockMcpHandler implements McpStatelessServerHandler {

    /** The {@code _meta} key of a {@code tools/call} under which an agent says why it asks (docs/mcp.md). */
    static final String REASON_META = "dev.airlock/reason";

    private static final Logger log = LoggerFactory.getLogger(AirlockMcpHandler.class);

    /** Transport-context key of the authenticated {@link AgentIdentity}. */
    static final String AGENT = "airlock.agent";
    /** Transport-context key of the {@link ProgressSink} of a call whose answer is a stream. */
    static final String PROGRESS = "airlock.progress";

    static final String INSTRUCTIONS = "Airlock runs your tenant's tools for you under its policies. A result's text"
            + " items hold Airlock's statements (starting with 'Airlock: ') and the tool's output fenced as untrusted data;"
            + " the facts (state, exit code, truncation, digests, approval) are in structuredContent. A call whose tool"
            + " needs a human's approval, or that is still running when the call's wait ends, answers with a run id:"
            + " airlock_status with that run id returns the outcome, airlock_output reads long output, airlock_cancel"
            + " stops a run.";

    /** Sends progress notifications for the call being answered. */
    interface ProgressSink {

        /** Sends one notification; false when the client is gone. */
        boolean send(Object progressToken, String message);
    }

    private final McpJsonMapper mapper;
    private final McpToolList tools;
    private final ToolCalls calls;
    private final List<String> protocolVersions;
    private final String version;

    AirlockMcpHandler(
            McpJsonMapper mapper, McpToolList tools, ToolCalls calls, List<String> protocolVersions, String version) {
        this.mapper = mapper;
        this.tools = tools;
        this.calls = calls;
        this.protocolVersions = List.copyOf(protocolVersions);
        this.version = version;
    }

    /** The transport context of a request the security chain let through: the agent it authenticated. */
    static McpTransportContext context(jakarta.servlet.http.HttpServletRequest request) {
        Map<String, Object> values = new HashMap<>();
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null
                && authentication.isAuthenticated()
                && authentication.getPrincipal() instanceof AgentIdentity agent) {
            values.put(AGENT, agent);
        }
        return McpTransportContext.create(values);
    }

    @Override
    public Mono<JSONRPCResponse> handleRequest(McpTransportContext context, McpSchema.JSONRPCRequest request) {
        return Mono.fromSupplier(() -> answer(context, request));
    }

    private JSONRPCResponse answer(McpTransportContext context, McpSchema.JSONRPCRequest request) {
        try {
            AgentIdentity agent = agent(context);
            Object result = switch (request.method()) {
                case McpSchema.METHOD_INITIALIZE -> initialize(request.params());
                case McpSchema.METHOD_PING -> Map.of();
                case McpSchema.METHOD_TOOLS_LIST -> listTools(agent, request.params());
                case McpSchema.METHOD_TOOLS_CALL -> callTool(agent, context, request);
                default -> throw error(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + printable(request.method()));
            };
            return JSONRPCResponse.result(request.id(), result);
        } catch (McpError e) {
            return JSONRPCResponse.error(request.id(), e.getJsonRpcError());
        } catch (RuntimeException e) {
            log.error(
                    "Could not answer MCP {} request {}",
                    printable(request.method()),
                    printable(String.valueOf(request.id())),
                    e);
            return JSONRPCResponse.error(
                    request.id(),
                    new JSONRPCResponse.JSONRPCError(
                            ErrorCodes.INTERNAL_ERROR, "Airlock could not complete the request; the error is logged."));
        }
    }

    @Override
    public Mono<Void> handleNotification(McpTransportContext context, McpSchema.JSONRPCNotification notification) {
        return Mono.fromRunnable(() -> {
            try {
                log.debug("MCP notification {}", printable(notification.method()));
                if ("notifications/cancelled".equals(notification.method())) {
                    cancelled(agent(context), notification.params());
                }
                // notifications/initialized and the others need nothing from a stateless server.
            } catch (RuntimeException e) {
                log.error("Could not handle MCP notification {}", printable(notification.method()), e);
            }
        });
    }

    private static AgentIdentity agent(McpTransportContext context) {
        if (context.get(AGENT) instanceof AgentIdentity agent) {
            return agent;
        }
        // The security chain admits only agents; reaching here without one is a wiring fault. Refuse.
        throw new IllegalStateException("MCP request without an authenticated agent");
    }

    private McpSchema.InitializeResult initialize(Object params) {
        McpSchema.InitializeRequest request = convert(params, McpSchema.InitializeRequest.class);
        if (request.protocolVersion() == null || request.protocolVersion().isBlank()) {
            throw error(ErrorCodes.INVALID_PARAMS, "initialize needs a protocolVersion");
        }
        String latest = protocolVersions.getLast();
        String negotiated = protocolVersions.contains(request.protocolVersion()) ? request.protocolVersion() : latest;
        return McpSchema.InitializeResult.builder(
                        negotiated,
                        McpSchema.ServerCapabilities.builder().tools(false).build(),
                        McpSchema.Implementation.builder("airlock", version)
                                .title("Airlock")
                                .build())
                .instructions(INSTRUCTIONS)
                .build();
    }

    private McpSchema.ListToolsResult listTools(AgentIdentity agent, Object params) {
        McpSchema.PaginatedRequest request =
                params == null ? new McpSchema.PaginatedRequest() : convert(params, McpSchema.PaginatedRequest.class);
        if (request.cursor() != null) {
            // Every tool fits on one page, so no cursor was ever handed out.
            throw error(ErrorCodes.INVALID_PARAMS, "Invalid cursor");
        }
        return McpSchema.ListToolsResult.builder(tools.tools(agent)).build();
    }

    private McpSchema.CallToolResult callTool(
            AgentIdentity agent, McpTransportContext context, McpSchema.JSONRPCRequest request) {
        McpSchema.CallToolRequest call = convert(request.params(), McpSchema.CallToolRequest.class);
        if (call.name() == null || tools.find(agent, call.name()).isEmpty()) {
            throw error(ErrorCodes.INVALID_PARAMS, "Unknown tool: " + printable(call.name()));
        }
        Object token = call.progressToken();
        ToolCalls.Progress progress = null;
        if (token != null && context.get(PROGRESS) instanceof ProgressSink sink) {
            progress = message -> sink.send(token, message);
        }
        Object reason = call.meta() == null ? null : call.meta().get(REASON_META);
        return calls.call(
                agent,
                call.name(),
                call.arguments(),
                new InFlightCalls.Key(agent, idText(request.id())),
                progress,
                reason instanceof String text ? text : null);
    }

    private void cancelled(AgentIdentity agent, Object params) {
        if (!(params instanceof Map<?, ?> map) || map.get("requestId") == null) {
            return;
        }
        calls.cancelled(new InFlightCalls.Key(agent, idText(map.get("requestId"))));
    }

    /** A request id as JSON text, so that the number 7 and the string "7" stay apart. */
    private String idText(Object id) {
        try {
            return mapper.writeValueAsString(id);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private <T> T convert(Object params, Class<T> type) {
        try {
            return mapper.convertValue(params == null ? Map.of() : params, type);
        } catch (RuntimeException e) {
            throw error(ErrorCodes.INVALID_PARAMS, "Invalid params for this method");
        }
    }

    private static McpError error(int code, String message) {
        return McpError.builder(code).message(message).build();
    }

    /** Client-sent text echoed in an error: one line, at most 100 characters. */
    static String printable(String text) {
        if (text == null) {
            return "(none)";
        }
        String line = CallResults.oneLine(text);
        return line.length() > 100 ? line.substring(0, 100) + "..." : line;
    }
}
