package dev.airlock.gateway.support;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.function.Consumer;

/** MCP Java SDK clients over streamable HTTP, as an agent would configure them for Airlock. */
public final class McpClients {

    private McpClients() {}

    /** A client for {@code base + "/mcp"} sending {@code Authorization: Bearer key} (no header when key is null). */
    public static McpSyncClient client(String base, String key) {
        return client(base, key, null, n -> {});
    }

    /**
     * A client with a request customizer of its own (run after the key is set) and a consumer of
     * progress notifications.
     */
    public static McpSyncClient client(
            String base,
            String key,
            McpSyncHttpClientRequestCustomizer customizer,
            Consumer<McpSchema.ProgressNotification> progress) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
                .endpoint("/mcp")
                .addHttpRequestCustomizer((builder, method, uri, body, context) -> {
                    if (key != null) {
                        builder.header("Authorization", "Bearer " + key);
                    }
                    if (customizer != null) {
                        customizer.customize(builder, method, uri, body, context);
                    }
                })
                .build();
        return McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(60))
                .clientInfo(
                        McpSchema.Implementation.builder("airlock-tests", "1").build())
                .progressConsumer(progress)
                .build();
    }
}
