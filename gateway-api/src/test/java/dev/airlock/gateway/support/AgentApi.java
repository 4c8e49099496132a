package dev.airlock.gateway.support;

import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Calls the agent API through MockMvc (security filters included) and parses the JSON it returns. */
public final class AgentApi {

    public static final String ACME = "acme-build-bot-key";
    public static final String ACME_OTHER = "acme-other-bot-key";
    public static final String GLOBEX = "globex-bot-key";
    public static final String TINY = "tiny-bot-key";

    private final MockMvcTester mvc;
    private final JsonMapper json = JsonMapper.builder().build();

    public AgentApi(MockMvcTester mvc) {
        this.mvc = mvc;
    }

    /**
     * One response.
     *
     * @param status  the HTTP status
     * @param body    the parsed JSON body (a missing node when empty)
     * @param headers the response headers
     * @param type    the content type
     */
    public record Response(int status, JsonNode body, HttpHeaders headers, String type) {

        public String text(String field) {
            return body.path(field).asString();
        }
    }

    public Response post(String key, String path, String body) {
        return post(key, path, body, null);
    }

    public Response post(String key, String path, String body, String idempotencyKey) {
        var request = mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body);
        if (key != null) {
            request = request.header(HttpHeaders.AUTHORIZATION, "Bearer " + key);
        }
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        return parse(request.exchange());
    }

    public Response run(String key, String tool, String argumentsJson) {
        return post(key, "/api/v1/runs?wait=PT30S", "{\"tool\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
    }

    /** A request as a signed-in person (console session), with or without the CSRF token. */
    public Response asHuman(String user, String tenantRole, boolean csrf, String method, String path, String body) {
        return parse(humanRequest(user, new String[] {tenantRole}, csrf, method, path, body).exchange());
    }

    /** A request as a signed-in person holding several authorities, with the CSRF token. */
    public Response asHuman(String user, String[] authorities, String method, String path, String body) {
        return parse(humanRequest(user, authorities, true, method, path, body).exchange());
    }

    /** A request as a signed-in person, its body kept as bytes (downloads, exports). */
    public MockHttpServletResponse rawAsHuman(String user, String tenantRole, String path) {
        return humanRequest(user, new String[] {tenantRole}, false, "GET", path, null).exchange().getResponse();
    }

    private MockMvcTester.MockMvcRequestBuilder humanRequest(String user, String[] authorities, boolean csrf, String method,
            String path, String body) {
        var request = switch (method) {
            case "POST" -> mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body == null ? "" : body);
            case "PUT" -> mvc.put().uri(path).contentType(MediaType.APPLICATION_JSON).content(body == null ? "" : body);
            case "DELETE" -> mvc.delete().uri(path);
            default -> mvc.get().uri(path);
        };
        var granted = java.util.Arrays.stream(authorities)
                .map(org.springframework.security.core.authority.SimpleGrantedAuthority::new).toList();
        request = request.with(org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors
                .user(user).authorities(granted));
        if (csrf) {
            request = request.with(org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors
                    .csrf().asHeader());
        }
        return request;
    }

    public Response get(String key, String path) {
        var request = mvc.get().uri(path);
        if (key != null) {
            request = request.header(HttpHeaders.AUTHORIZATION, "Bearer " + key);
        }
        return parse(request.exchange());
    }

    private Response parse(MvcTestResult result) {
        MockHttpServletResponse response = result.getResponse();
        String content = new String(response.getContentAsByteArray(), StandardCharsets.UTF_8);
        JsonNode body = content.isEmpty() ? json.missingNode() : json.readTree(content);
        HttpHeaders headers = new HttpHeaders();
        response.getHeaderNames().forEach(n -> headers.addAll(n, response.getHeaders(n)));
        return new Response(response.getStatus(), body, headers, response.getContentType());
    }
}
