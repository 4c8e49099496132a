package dev.airlock.gateway.demo;

import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Under the {@code demo} profile, prints how to call the demo tenant once the gateway is up. */
@Component
@Profile("demo")
class DemoBanner {

    private static final Logger log = LoggerFactory.getLogger(DemoBanner.class);

    @EventListener
    void ready(ApplicationReadyEvent event) {
        int port = event.getApplicationContext() instanceof WebServerApplicationContext web
                ? Objects.requireNonNull(web.getWebServer(), "a web application that is ready has its server")
                        .getPort()
                : 8080;
        String base = "http://localhost:" + port;
        // Built with replace, not as a log pattern: the JSON's braces would pass for placeholders.
        log.info("""

                Airlock demo is ready on BASE
                  Demo agent key (demo only): demo-agent-key
                  List tools:  curl -s -H 'Authorization: Bearer demo-agent-key' BASE/api/v1/tools
                  Run a tool:  curl -s -H 'Authorization: Bearer demo-agent-key' -H 'Content-Type: application/json' \\
                                 -d '{"tool":"colors","arguments":{}}' 'BASE/api/v1/runs?wait=PT10S'
                  MCP:         claude mcp add --transport http airlock BASE/mcp --header 'Authorization: Bearer demo-agent-key'
                  Approvals:   sign in to BASE/console as demo-approver / demo-approver-password (demo only)
                  API document: BASE/swagger-ui.html
                """.replace("BASE", base));
    }
}
