package dev.airlock.gateway.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds every request body before anything parses it: a declared length over the limit is
 * answered 413 at once, and a body without a declared length (chunked) stops being read at the
 * limit, which ends its parsing with {@link TooLarge} (answered 413 as well). The APIs read JSON
 * only: a body of another media type sent to {@code /api/} is answered 415 (so that no other
 * reader, such as YAML, ever sees a body the JSON bounds would refuse). The MCP endpoint bounds its
 * own POST bodies the same way and answers in JSON-RPC; its other methods are bounded here.
 */
public final class RequestBodyLimit extends OncePerRequestFilter {

    private final long maxBytes;
    private final String skippedPath;

    /**
     * @param maxBytes    the largest body accepted
     * @param skippedPath a path that bounds its POST bodies itself, or null
     */
    public RequestBodyLimit(long maxBytes, String skippedPath) {
        this.maxBytes = maxBytes;
        this.skippedPath = skippedPath;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // Only the POSTs the endpoint reads itself; any other method there is bounded here like everywhere
        // (nothing of Airlock's reads it, but a filter of the framework's may, before the endpoint refuses it).
        // The decoded path the container routes by, not the raw URI (where /%6Dcp would not look like /mcp).
        String path = path(request);
        return skippedPath != null
                && "POST".equals(request.getMethod())
                && (path.equals(skippedPath) || path.startsWith(skippedPath + "/"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            tooLarge(response, maxBytes);
            return;
        }
        boolean api = path(request).startsWith("/api/");
        if (api && mayHaveBody(request) && !json(request.getContentType())) {
            refuse(
                    response,
                    HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    "unsupported-media-type",
                    "Unsupported media type",
                    "The API reads JSON bodies only (Content-Type: application/json).");
            return;
        }
        if (api && mayHaveBody(request) && !StrictUtf8.namesUtf8OrNone(request.getContentType())) {
            refuse(
                    response,
                    HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    "unsupported-media-type",
                    "Unsupported media type",
                    "The API reads JSON bodies in UTF-8 only (no charset parameter, or charset=utf-8).");
            return;
        }
        // The API's JSON is read as strict UTF-8 as it arrives (RFC 8259), whatever Jackson would detect.
        chain.doFilter(new Bounded(request, maxBytes, api), response);
    }

    /**
     * The decoded path within the application that the container routes by (servlet path and path
     * info), never the raw request URI, where {@code /%6Dcp} would not look like {@code /mcp}.
     */
    public static String path(HttpServletRequest request) {
        return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    }

    /**
     * Whether the request has a body, or says it has one of a type without saying how long (HTTP/2
     * frames a body without {@code Content-Length} or {@code Transfer-Encoding}): such a body must be
     * JSON too, or another converter (YAML) would read it without the JSON reader's bounds.
     */
    private static boolean mayHaveBody(HttpServletRequest request) {
        long length = request.getContentLengthLong();
        return length > 0
                || request.getHeader("Transfer-Encoding") != null
                || length < 0
                        && request.getContentType() != null
                        && request.getProtocol().startsWith("HTTP/2");
    }

    private static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
        return type.equals("application/json") || type.startsWith("application/") && type.endsWith("+json");
    }

    /** Answers 413 with a problem body. */
    static void tooLarge(HttpServletResponse response, long maxBytes) throws IOException {
        response.setHeader("Connection", "close");
        refuse(
                response,
                HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                "body-too-large",
                "Request body too large",
                "The request body is larger than " + maxBytes + " bytes.");
    }

    private static void refuse(HttpServletResponse response, int status, String type, String title, String detail)
            throws IOException {
        response.setStatus(status);
        response.setContentType(dev.airlock.kernel.problem.ProblemJson.MEDIA_TYPE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter()
                .write("{\"type\":\"urn:airlock:problem:" + type + "\",\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"" + detail + "\"}");
    }

    /** Thrown to whatever reads past the limit of a body without a declared length. */
    public static final class TooLarge extends IOException {

        private static final long serialVersionUID = 1L;
        private final long maxBytes;

        TooLarge(long maxBytes) {
            super("The request body is larger than " + maxBytes + " bytes.");
            this.maxBytes = maxBytes;
        }

        /** The limit that was passed. */
        public long maxBytes() {
            return maxBytes;
        }
    }

    private static final class Bounded extends HttpServletRequestWrapper {

        private final long maxBytes;
        private final boolean utf8;
        private @Nullable ServletInputStream stream;

        Bounded(HttpServletRequest request, long maxBytes, boolean utf8) {
            super(request);
            this.maxBytes = maxBytes;
            this.utf8 = utf8;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Counting(super.getInputStream(), maxBytes, utf8 ? new StrictUtf8() : null);
            }
            return stream;
        }

        @Override
        public java.io.BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding() == null ? "UTF-8" : getCharacterEncoding();
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(), encoding));
        }
    }

    private static final class Counting extends ServletInputStream {

        private final ServletInputStream in;
        private final long maxBytes;
        private final @Nullable StrictUtf8 utf8;
        private long read;

        Counting(ServletInputStream in, long maxBytes, @Nullable StrictUtf8 utf8) {
            this.in = in;
            this.maxBytes = maxBytes;
            this.utf8 = utf8;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
                if (utf8 != null) {
                    utf8.next(new byte[] {(byte) b}, 0, 1);
                }
            } else if (utf8 != null) {
                utf8.end();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
                if (utf8 != null) {
                    utf8.next(buffer, offset, n);
                }
            } else if (n < 0 && utf8 != null) {
                utf8.end();
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > maxBytes) {
                throw new TooLarge(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
