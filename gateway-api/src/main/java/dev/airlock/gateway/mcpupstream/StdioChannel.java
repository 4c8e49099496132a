package dev.airlock.gateway.mcpupstream;

import dev.airlock.gateway.capture.ServerProcess;
import dev.airlock.persistence.run.Termination;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stdio MCP server's connection: one JSON message per line on its standard input and output. A
 * line longer than the server's {@code max-response-bytes} ends the connection (every request
 * waiting ends with RESPONSE_LIMIT, and the server is stopped: whatever it was saying cannot be
 * told apart from the next message); what it writes to standard error is logged sanitized, line by
 * line, bounded, never shown to agents.
 */
final class StdioChannel extends McpChannel {

    private static final Logger log = LoggerFactory.getLogger(StdioChannel.class);
    /** Lines of standard error logged per server before the rest is only counted. */
    private static final int STDERR_LINES_LOGGED = 200;

    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("mcp-write-watchdog").daemon().factory());

    private final ServerProcess process;
    private final long maxMessageBytes;
    private final Object writing = new Object();

    StdioChannel(
            String name,
            JsonMapper json,
            Consumer<String> notifications,
            java.util.function.Supplier<dev.airlock.sanitizer.SecretRedactor> redactor,
            ServerProcess process,
            long maxMessageBytes) {
        super(name, json, notifications, redactor);
        this.process = process;
        this.maxMessageBytes = maxMessageBytes;
        // Platform threads: a blocking pipe read would hold a virtual thread's carrier.
        Thread.ofPlatform().daemon().name("mcp-out-" + name).start(this::readAnswers);
        Thread.ofPlatform().daemon().name("mcp-err-" + name).start(this::readErrors);
    }

    @Override
    protected void transmit(byte[] message, Duration timeout, dev.airlock.egress.CallControl control)
            throws McpFailure {
        String why = closedReason();
        if (why != null) {
            throw new McpFailure(Termination.SERVER_DOWN, why);
        }
        synchronized (writing) {
            // A server that stops reading fills the pipe and would block this write for ever: past the
            // timeout it is stopped, which ends the write.
            var watchdog = WATCHDOG.schedule(
                    () -> {
                        log.warn("MCP server {} stopped reading its input; stopping it", name);
                        fail(Termination.SERVER_DOWN, "the server stopped reading its input");
                        process.stop();
                    },
                    timeout.toNanos(),
                    java.util.concurrent.TimeUnit.NANOSECONDS);
            try {
                OutputStream in = process.stdin();
                in.write(message);
                in.write('\n');
                in.flush();
            } catch (IOException e) {
                fail(Termination.SERVER_DOWN, "the server stopped reading its input");
                throw new McpFailure(Termination.SERVER_DOWN, "the server stopped reading its input");
            } finally {
                watchdog.cancel(false);
            }
        }
    }

    private void readAnswers() {
        InputStream out = process.stdout();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        try {
            int read;
            while ((read = out.read(buffer)) >= 0) {
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, start, i - start);
                        byte[] message = line.toByteArray();
                        line.reset();
                        start = i + 1;
                        if (message.length > 0 && !(message.length == 1 && message[0] == '\r')) {
                            deliver(message);
                        }
                    }
                }
                line.write(buffer, start, read - start);
                if (line.size() > maxMessageBytes) {
                    log.warn(
                            "MCP server {} sent a message longer than its limit of {} bytes; stopping it",
                            name,
                            maxMessageBytes);
                    fail(Termination.RESPONSE_LIMIT, "the server's message exceeded " + maxMessageBytes + " bytes");
                    process.stop();
                    return;
                }
            }
            fail(Termination.SERVER_DOWN, "the server closed its output (it ended)");
        } catch (IOException e) {
            fail(Termination.SERVER_DOWN, "the server's output could not be read");
        }
    }

    private void readErrors() {
        InputStream err = new java.io.BufferedInputStream(process.stderr());
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int logged = 0;
        long dropped = 0;
        try {
            int b;
            while ((b = err.read()) >= 0) {
                if (b == '\n') {
                    if (logged < STDERR_LINES_LOGGED) {
                        log.info("MCP server {} stderr: {}", name, loggable(line.toString(StandardCharsets.UTF_8)));
                        logged++;
                    } else {
                        dropped++;
                    }
                    line.reset();
                } else if (line.size() < LOG_TEXT_LIMIT * 4) {
                    line.write(b);
                }
            }
        } catch (IOException e) {
            // The server is gone; its standard error with it.
        }
        if (dropped > 0) {
            log.info("MCP server {}: {} more line(s) of standard error not logged", name, dropped);
        }
    }

    @Override
    boolean isOpen() {
        return super.isOpen() && process.isAlive();
    }

    @Override
    public void close() {
        fail(Termination.SERVER_DOWN, "the server was stopped");
        process.stop();
    }
}
