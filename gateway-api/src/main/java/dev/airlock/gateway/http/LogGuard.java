package dev.airlock.gateway.http;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps the loggers off that would write secrets or an agent's raw bytes, whatever the logging
 * settings say. Set before any bean is made, after the logging settings are applied, so that no
 * setting (not even {@code logging.level.root=TRACE}) turns them on:
 *
 * <ul>
 *   <li>the HTTP client's header and wire logs, which at DEBUG write every request's {@code
 *       Authorization} (and every credential header);
 *   <li>the MCP SDK's server transport, which logs a message it cannot read at ERROR with the whole
 *       body, and its schema reader, which logs every message whole at DEBUG: an agent's bytes,
 *       line breaks included, would be lines of the gateway's log. Airlock's own filter ({@code
 *       ProgressStreams}) refuses such messages before the SDK and says why, and its handler logs
 *       its own failures ({@code AirlockMcpHandler}).
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class LogGuard {

    /** The loggers kept off. */
    static final String[] LOGGERS = {
        "org.apache.hc.client5.http.headers",
        "org.apache.hc.client5.http.wire",
        "io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport",
        "io.modelcontextprotocol.spec.McpSchema"
    };

    @Bean
    static BeanFactoryPostProcessor untrustedLogsOff() {
        return beanFactory -> {
            LoggingSystem logging = LoggingSystem.get(LogGuard.class.getClassLoader());
            for (String logger : LOGGERS) {
                logging.setLogLevel(logger, LogLevel.OFF);
            }
        };
    }
}
