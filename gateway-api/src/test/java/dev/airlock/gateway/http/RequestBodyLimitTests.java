package dev.airlock.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The API's bodies are JSON, whether or not the request says how long its body is. */
class RequestBodyLimitTests {

    private static MockHttpServletResponse filter(MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        new RequestBodyLimit(1 << 20, "/mcp").doFilter(request, response, new MockFilterChain());
        return response;
    }

    private static MockHttpServletRequest post(String contentType) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/runs");
        request.setServletPath("/api/v1/runs");
        if (contentType != null) {
            request.setContentType(contentType);
        }
        return request;
    }

    @Test
    void aBodyOfAnotherTypeWithoutALengthIsRefusedAsOneWithALength() throws Exception {
        // No content set: the length is unknown (-1), as for an HTTP/2 body sent without Content-Length.
        MockHttpServletRequest framed = post("application/yaml");
        framed.setProtocol("HTTP/2.0");
        assertThat(filter(framed).getStatus()).isEqualTo(415);
        assertThat(filter(post("application/yaml")).getStatus())
                .as("HTTP/1.1 without a length or a transfer coding: no body, whatever its type says")
                .isEqualTo(200);
        MockHttpServletRequest sized = post("application/yaml");
        sized.setContent("tool: echo\n".getBytes());
        assertThat(filter(sized).getStatus()).isEqualTo(415);

        assertThat(filter(post("application/json")).getStatus()).isEqualTo(200);
        MockHttpServletRequest empty = post("application/yaml");
        empty.setContent(new byte[0]);
        assertThat(filter(empty).getStatus()).as("an empty body of any type").isEqualTo(200);
        MockHttpServletRequest get = new MockHttpServletRequest("GET", "/api/v1/runs");
        get.setServletPath("/api/v1/runs");
        assertThat(filter(get).getStatus()).as("no body, no type").isEqualTo(200);
    }
}
