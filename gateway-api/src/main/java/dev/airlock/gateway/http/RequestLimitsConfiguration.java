package dev.airlock.gateway.http;

import dev.airlock.kernel.config.AirlockProperties;
import java.util.List;
import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.annotation.Order;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP edge of the application ({@code airlock.http.*}): the body-size filter in front of
 * everything; the JSON converter that reads request bodies through {@link BoundedJson} (the
 * application's own mapper, which reads what Airlock itself stored, is left unbounded); which
 * proxies' forwarded headers are believed; and the address the OpenAPI document names.
 */
@Configuration(proxyBeanMethods = false)
class RequestLimitsConfiguration {

    /** The MCP endpoint answers an oversized body in JSON-RPC itself. */
    private static final String MCP_PATH = "/mcp";

    /** Forwarded headers from the configured proxies only; form bodies bounded like every other body. */
    @Bean
    TomcatEdge tomcatEdge(AirlockProperties properties) {
        return TomcatEdge.of(properties.http().trustedProxies())
                .boundingForms(properties.http().maxRequestBody().toBytes());
    }

    /**
     * The OpenAPI document's server: the configured public address, or the path alone, never
     * what a request's {@code Host} or {@code X-Forwarded-Host} says (a document that names
     * whatever host asked for it sends its readers' keys there).
     */
    @Bean
    io.swagger.v3.oas.models.OpenAPI openApi(AirlockProperties properties) {
        java.net.URI publicUrl = properties.http().publicUrl();
        return new io.swagger.v3.oas.models.OpenAPI()
                .info(new io.swagger.v3.oas.models.info.Info()
                        .title("Airlock")
                        .version("v1")
                        .description("The agent API: tools, runs and their envelopes. See docs/agent-api.md."))
                .servers(List.of(new io.swagger.v3.oas.models.servers.Server()
                        .url(publicUrl == null ? "/" : publicUrl.toString().replaceAll("/+$", ""))));
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimit> requestBodyLimit(AirlockProperties properties) {
        FilterRegistrationBean<RequestBodyLimit> registration = new FilterRegistrationBean<>(
                new RequestBodyLimit(properties.http().maxRequestBody().toBytes(), MCP_PATH));
        registration.setName("requestBodyLimit");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /**
     * Request and response JSON of the server: the application's mapper settings (every Spring
     * Boot customizer), on a factory that reads within the bounds, refusing unknown fields. It takes the JSON converter's
     * place among the server's converters (after Spring Boot's, which it replaces), so the others
     * keep theirs.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    ServerHttpMessageConvertersCustomizer boundedJsonConverter(
            List<JsonMapperBuilderCustomizer> customizers, AirlockProperties properties) {
        JsonMapper.Builder builder = JsonMapper.builder(
                BoundedJson.factory(properties.http().maxRequestBody().toBytes()));
        customizers.stream().sorted(AnnotationAwareOrderComparator.INSTANCE).forEach(c -> c.customize(builder));
        // A field the body's type does not have is a 400 naming it, never ignored: a misspelt
        // "args" must not run a tool with its defaults (ProblemHandler names the field).
        builder.enable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        BoundedJson.strictScalars(builder);
        JacksonJsonHttpMessageConverter converter = new JacksonJsonHttpMessageConverter(builder.build());
        return converters -> converters.withJsonConverter(converter);
    }
}
