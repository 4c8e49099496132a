package dev.airlock.persistence.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.persistence.Fixtures;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Upstream MCP tool definitions on PostgreSQL: the first listing pinned, later ones held, and a
 * server that lists new tools by the hundred holding no more than {@link McpToolDefinitions#MAX_PENDING}.
 */
@SpringBootTest
class McpToolDefinitionsIntegrationTests {

    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

    @Autowired
    McpToolDefinitions definitions;

    @Autowired
    JdbcClient jdbc;

    String tenant;

    @BeforeEach
    void setUp() {
        tenant = new Fixtures(jdbc).tenant();
    }

    @Test
    void aServerListingNewToolsByTheHundredHoldsAtMostMaxPendingOfThem() {
        assertThat(definitions.record(tenant, "srv", "first", "a".repeat(64), "{}", true, NOW))
                .isEqualTo(McpToolDefinitions.Status.APPROVED);
        for (int i = 0; i < McpToolDefinitions.MAX_PENDING + 50; i++) {
            assertThat(definitions.record(
                            tenant, "srv", "new-" + i, String.format("%064x", i), "{\"n\":" + i + "}", false, NOW))
                    .as("held, recorded or not")
                    .isEqualTo(McpToolDefinitions.Status.PENDING);
        }
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.mcp_tool_definitions WHERE tenant = ? AND status = 'PENDING'")
                        .param(tenant)
                        .query(Integer.class)
                        .single())
                .isEqualTo(McpToolDefinitions.MAX_PENDING);
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE tenant = ? AND type = 'mcp.tool.changed'")
                        .param(tenant)
                        .query(Integer.class)
                        .single())
                .as("one event per definition recorded")
                .isEqualTo(McpToolDefinitions.MAX_PENDING);
        assertThat(definitions.record(tenant, "other", "new-0", "b".repeat(64), "{}", false, NOW))
                .isEqualTo(McpToolDefinitions.Status.PENDING);
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.mcp_tool_definitions WHERE tenant = ? AND server = 'other'")
                        .param(tenant)
                        .query(Integer.class)
                        .single())
                .as("another server's own limit")
                .isEqualTo(1);
    }
}
