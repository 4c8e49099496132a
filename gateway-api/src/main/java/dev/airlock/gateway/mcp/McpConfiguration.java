package dev.airlock.gateway.mcp;

import dev.airlock.gateway.run.OutputExcerpts;
import dev.airlock.gateway.run.RunService;
import dev.airlock.gateway.settings.AgentSettings;
import dev.airlock.gateway.tool.ToolCatalog;
import dev.airlock.kernel.config.AirlockProperties;
import dev.airlock.kernel.config.TenantNames;
import dev.airlock.persistence.envelope.RunViews;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson3.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serves {@code /mcp} (unless {@code airlock.mcp.enabled} is false): the MCP Java SDK's
 * stateless streamable-HTTP servlet transport, answering through {@link AirlockMcpHandler},
 * with {@link ProgressStreams} in front of it for calls that ask for progress. Authentication
 * and the Origin rule come first, from the security filter chain for {@code /mcp}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "airlock.mcp.enabled", matchIfMissing = true)
@dev.airlock.kernel.config.ConditionalOnSide(dev.airlock.kernel.config.Side.AGENT_API)
class McpConfiguration {

    /** The endpoint's path. */
    static final String PATH = "/mcp";
    /**
     * The protocol's JSON mapper: a plain Jackson 3 mapper, apart from the application's (whose
     * settings, such as writing nulls, are the REST API's). The envelope is turned into plain
     * JSON values by the application's mapper first, so it reads exactly as over REST.
     */
    private final McpJsonMapper protocolJson;

    McpConfiguration(AirlockProperties properties) {
        this.maxBody = (int) Math.min(properties.http().maxRequestBody().toBytes(), Integer.MAX_VALUE);
        this.protocolJson = new JacksonMcpJsonMapper(
                tools.jackson.databind.json.JsonMapper.builder(dev.airlock.gateway.http.BoundedJson.factory(maxBody))
                        // The SDK writes some refusals (malformed bodies, batches) as its exception object: never
                        // with a stack trace, a cause or internal messages of the JVM.
                        .addMixIn(Throwable.class, ThrowableWithoutInternals.class)
                        .build());
    }

    /** The largest request body ({@code airlock.http.max-request-body}), as for every other endpoint. */
    private final int maxBody;

    /** What of an exception the protocol may show: nothing but what the SDK put in its JSON-RPC error. */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties({
        "stackTrace",
        "cause",
        "suppressed",
        "localizedMessage",
        "message"
    })
    abstract static class ThrowableWithoutInternals {}

    @Bean
    HttpServletStatelessServerTransport mcpTransport(AgentSettings properties) {
        return HttpServletStatelessServerTransport.builder()
                .jsonMapper(protocolJson)
                .messageEndpoint(PATH)
                .contextExtractor(AirlockMcpHandler::context)
                // The security chain has refused foreign origins already; the SDK's own check is a second line.
                .httpHeaderValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedOrigins(properties.mcp().allowedOrigins())
                        .build())
                .maxRequestSize(maxBody)
                .build();
    }

    @Bean
    AirlockMcpHandler mcpHandler(
            HttpServletStatelessServerTransport transport,
            AgentSettings properties,
            AirlockProperties shared,
            TenantNames tenants,
            ToolCatalog catalog,
            RunService runs,
            RunViews views,
            OutputExcerpts excerpts,
            dev.airlock.gateway.mcpupstream.UpstreamProgress upstreamProgress,
            JsonMapper json) {
        var mcp = properties.mcp();
        BuiltInTools builtIns = new BuiltInTools(mcp.callWait());
        McpToolList tools = new McpToolList(
                catalog,
                tenants.names(),
                builtIns,
                protocolJson,
                new DefaultJsonSchemaValidator(JsonMapper.builder().build()));
        CallResults results =
                new CallResults(mcp.maxText(), mcp.callWait(), shared.console().baseUrl());
        ToolCalls calls = new ToolCalls(
                runs, views, excerpts, builtIns, results, new InFlightCalls(), upstreamProgress, json, mcp.callWait());
        String version = McpConfiguration.class.getPackage().getImplementationVersion();
        AirlockMcpHandler handler = new AirlockMcpHandler(
                protocolJson, tools, calls, transport.protocolVersions(), version == null ? "development" : version);
        transport.setMcpHandler(handler);
        return handler;
    }

    @Bean
    ServletRegistrationBean<HttpServletStatelessServerTransport> mcpServlet(
            HttpServletStatelessServerTransport transport, AirlockMcpHandler handler) {
        ServletRegistrationBean<HttpServletStatelessServerTransport> registration =
                new ServletRegistrationBean<>(transport, PATH);
        registration.setName("mcp");
        registration.setAsyncSupported(true);
        return registration;
    }

    @Bean
    FilterRegistrationBean<ProgressStreams> mcpProgressStreams(
            AirlockMcpHandler handler, HttpServletStatelessServerTransport transport) {
        List<String> versions = transport.protocolVersions();
        FilterRegistrationBean<ProgressStreams> registration = new FilterRegistrationBean<>(
                new ProgressStreams(handler, protocolJson, AirlockMcpHandler::context, versions, maxBody));
        registration.setName("mcpProgressStreams");
        registration.setServletNames(List.of("mcp"));
        // After Spring Security's filter chain (order -100): only authenticated agents get this far.
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 100);
        return registration;
    }
}
