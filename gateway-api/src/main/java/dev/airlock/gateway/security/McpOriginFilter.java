package dev.airlock.gateway.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The MCP specification's defence against DNS rebinding: a request to {@code /mcp} that carries
 * an {@code Origin} header is refused with 403 unless that origin is one of
 * {@code airlock.mcp.allowed-origins}, before anything else looks at it. A request without the
 * header did not come from a browser page and is let through to authentication. More than one
 * {@code Origin} header, an empty one or the opaque origin {@code null} is refused too.
 */
final class McpOriginFilter extends OncePerRequestFilter {

    private final Set<String> allowed;

    McpOriginFilter(List<String> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<String> origins = Collections.list(request.getHeaders("Origin"));
        if (origins.isEmpty()
                || origins.size() == 1
                        && allowed.contains(origins.getFirst().strip().toLowerCase(Locale.ROOT))) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write(
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                                + "\"message\":\"Forbidden: this Origin may not call the MCP endpoint (see airlock.mcp.allowed-origins).\"}}");
    }
}
