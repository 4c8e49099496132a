package dev.airlock.gateway.support;

import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import tools.jackson.databind.json.JsonMapper;

/**
 * An upstream MCP server written with the MCP Java SDK, served over streamable HTTP by an embedded
 * Tomcat on 127.0.0.1 (one per test JVM): {@code greet} answers with text and structured content,
 * {@code slow} reports progress twice before it answers. What Airlock's {@code url} servers are
 * tested against.
 */
public final class JavaSdkMcpServer {

    private static JavaSdkMcpServer shared;

    private final Tomcat tomcat;
    private final McpSyncServer server;

    private JavaSdkMcpServer() throws LifecycleException {
        JacksonMcpJsonMapper json =
                new JacksonMcpJsonMapper(JsonMapper.builder().build());
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint("/mcp")
                .build();
        Map<String, Object> greetSchema = Map.of(
                "type", "object",
                "properties", Map.of("name", Map.of("type", "string", "maxLength", 40)),
                "required", List.of("name"));
        server = McpServer.sync(transport)
                .serverInfo("java-sdk-upstream", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(
                        McpServerFeatures.SyncToolSpecification.builder()
                                .tool(McpSchema.Tool.builder()
                                        .name("greet")
                                        .description("Greets someone")
                                        .inputSchema(greetSchema)
                                        .build())
                                .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                                        .addTextContent(
                                                "Hello, " + request.arguments().get("name") + "!")
                                        .structuredContent(Map.of(
                                                "greeted", request.arguments().get("name")))
                                        .build())
                                .build(),
                        McpServerFeatures.SyncToolSpecification.builder()
                                .tool(McpSchema.Tool.builder()
                                        .name("slow")
                                        .description("Reports progress, then answers")
                                        .inputSchema(Map.of("type", "object"))
                                        .build())
                                .callHandler((exchange, request) -> {
                                    Object token = request.meta() == null
                                            ? null
                                            : request.meta().get("progressToken");
                                    for (int step = 1; step <= 2; step++) {
                                        if (token != null) {
                                            exchange.progressNotification(new McpSchema.ProgressNotification(
                                                    token,
                                                    (double) step,
                                                    2.0,
                                                    "step " + step + " \u001b[31mof two",
                                                    null));
                                        }
                                        sleep(1500);
                                    }
                                    return McpSchema.CallToolResult.builder()
                                            .addTextContent("done")
                                            .build();
                                })
                                .build(),
                        McpServerFeatures.SyncToolSpecification.builder()
                                .tool(McpSchema.Tool.builder()
                                        .name("hang")
                                        .description("Answers after a minute")
                                        .inputSchema(Map.of("type", "object"))
                                        .build())
                                .callHandler((exchange, request) -> {
                                    sleep(60_000);
                                    return McpSchema.CallToolResult.builder()
                                            .addTextContent("late")
                                            .build();
                                })
                                .build())
                .build();
        tomcat = new Tomcat();
        tomcat.setBaseDir(System.getProperty("java.io.tmpdir") + "/airlock-java-sdk-mcp-"
                + ProcessHandle.current().pid());
        tomcat.setHostname("127.0.0.1");
        tomcat.getConnector().setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded("/mcp", "mcp");
        tomcat.start();
    }

    /** The server of this test JVM, started at the first call. */
    public static synchronized JavaSdkMcpServer shared() {
        if (shared == null) {
            try {
                shared = new JavaSdkMcpServer();
            } catch (LifecycleException e) {
                throw new IllegalStateException("the Java SDK MCP server did not start", e);
            }
        }
        return shared;
    }

    /** Its endpoint. */
    public String url() {
        return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
