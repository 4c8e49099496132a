package dev.airlock.gateway.audit;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static dev.airlock.gateway.support.AgentApi.GLOBEX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.persistence.audit.AuditLog;
import dev.airlock.persistence.scope.DatabaseRole;
import dev.airlock.persistence.scope.DatabaseScope;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/** The hash-chained audit log: what it records, that it cannot be changed, and that tampering shows. */
@AirlockIntegrationTest
class AuditLogIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    /** The application's own connection: statements run as the transaction's scope says. */
    @Autowired
    JdbcClient appJdbc;

    @Autowired
    AuditLog log;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void recordsWhoAuthorizedTheRunAndWhatItReturnedAndTheChainVerifies() {
        AgentApi api = new AgentApi(mvc);
        String runId = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"audited\"}}")
                .text("runId");
        String digest = api.asHuman("alice", false, "GET", "/api/v1/approvals/" + runId, null)
                .body()
                .path("summary")
                .path("digest")
                .asString();
        api.asHuman(
                "alice",
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"reason\":\"audit trail\",\"digest\":\"" + digest + "\"}");
        JsonNode run = api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body();

        AgentApi.Response events =
                api.asHuman("bob", false, "GET", "/api/v1/audit/runs/" + runId + "/events?tenant=acme", null);
        assertThat(events.status()).isEqualTo(200);
        assertThat(events.body()
                        .valueStream()
                        .map(e -> e.path("type").asString() + " "
                                + e.path("actor").asString())
                        .toList())
                .containsExactly(
                        "run.requested agent:build-bot",
                        "approval.requested airlock",
                        "approval.decided human:alice",
                        "run.started airlock",
                        "run.finished airlock");
        JsonNode finished = events.body().get(4);
        assertThat(finished.path("details").asString())
                .contains(run.path("stdout").path("sha256").asString())
                .contains(run.path("rawArtifact").asString())
                .doesNotContain("audited\\n");

        JsonNode verification = api.asHuman("bob", false, "GET", "/api/v1/audit/verify?tenant=acme", null)
                .body();
        assertThat(verification.path("intact").asBoolean()).isTrue();
        assertThat(verification.path("verified").asLong()).isGreaterThanOrEqualTo(5);
        assertThat(verification.path("head").asString())
                .isEqualTo(jdbc.sql(
                                "SELECT hash FROM airlock.audit_events WHERE tenant = 'acme' ORDER BY seq DESC LIMIT 1")
                        .query(String.class)
                        .single());

        assertThat(api.asHuman("alice", false, "GET", "/api/v1/audit/verify?tenant=acme", null)
                        .status())
                .isEqualTo(403);
        assertThat(api.get(ACME, "/api/v1/audit/verify?tenant=acme").status()).isEqualTo(401);
    }

    @Test
    void theApplicationCannotChangeOrRemoveEvents() {
        new AgentApi(mvc).run(ACME, "echo", "{\"message\":\"immutable\"}");
        assertThatThrownBy(() -> jdbc.sql("UPDATE airlock.audit_events SET actor = 'someone else'")
                        .update())
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("DELETE FROM airlock.audit_events").update())
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("append-only");
        assertThatThrownBy(() -> jdbc.sql("TRUNCATE airlock.audit_events").update())
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("append-only");
    }

    @Test
    void theApplicationsRolesRemoveEventsOnlyThroughTheRetentionFunction() {
        TransactionTemplate tx = new TransactionTemplate(transactions);
        String tenant = "role-check";
        DatabaseScope console = DatabaseScope.of(DatabaseRole.CONSOLE, java.util.List.of(tenant));
        console.run(() -> tx.executeWithoutResult(s -> {
            for (int i = 0; i < 3; i++) {
                log.append(
                        tenant,
                        dev.airlock.persistence.audit.AuditEventType.CONFIG_CHANGED,
                        null,
                        "airlock",
                        java.util.Map.of("n", Integer.toString(i)),
                        java.time.Instant.now());
            }
        }));
        for (DatabaseRole role : DatabaseRole.values()) {
            assertThatThrownBy(() -> DatabaseScope.of(role, java.util.List.of(tenant))
                            .run(() -> tx.executeWithoutResult(s -> {
                                appJdbc.sql("SELECT set_config('airlock.audit_retention', 'on', true)")
                                        .query(String.class)
                                        .single();
                                appJdbc.sql("DELETE FROM airlock.audit_events WHERE tenant = :tenant AND seq = 2")
                                        .param("tenant", tenant)
                                        .update();
                            })))
                    .as(role.roleName())
                    .isInstanceOf(DataAccessException.class)
                    .rootCause()
                    .hasMessageContaining("permission denied");
        }
        Integer removed = console.call(
                () -> tx.execute(s -> appJdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, 1, now())")
                        .param("tenant", tenant)
                        .query(Integer.class)
                        .single()));
        assertThat(removed).isEqualTo(1);
        assertThat(jdbc.sql("SELECT first_seq FROM airlock.audit_chain_starts WHERE tenant = :tenant")
                        .param("tenant", tenant)
                        .query(Long.class)
                        .single())
                .isEqualTo(2);
        assertThatThrownBy(() -> console.run(() -> tx.executeWithoutResult(
                        s -> appJdbc.sql("SELECT airlock.remove_oldest_audit_events(:tenant, 3, now())")
                                .param("tenant", tenant)
                                .query(Integer.class)
                                .single())))
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("never removed");
        assertThat(console.call(() -> log.verify(tenant)).intact())
                .as("a cut no retention event confirms")
                .isFalse();
    }

    @Test
    void verificationFindsTheFirstTamperedEvent() {
        AgentApi api = new AgentApi(mvc);
        for (int i = 0; i < 3; i++) {
            api.run(GLOBEX, "echo", "{\"message\":\"event " + i + "\"}");
        }
        long second = jdbc.sql("SELECT min(seq) + 1 FROM airlock.audit_events WHERE tenant = 'globex'")
                .query(Long.class)
                .single();
        // Tampering needs the table owner to switch the trigger off: exactly what the chain guards against.
        jdbc.sql("ALTER TABLE airlock.audit_events DISABLE TRIGGER audit_events_append_only")
                .update();
        try {
            jdbc.sql(
                            "UPDATE airlock.audit_events SET details = '{\"forged\":\"yes\"}' WHERE tenant = 'globex' AND seq = :seq")
                    .param("seq", second)
                    .update();
        } finally {
            jdbc.sql("ALTER TABLE airlock.audit_events ENABLE TRIGGER audit_events_append_only")
                    .update();
        }
        JsonNode verification = api.asHuman("dave", false, "GET", "/api/v1/audit/verify?tenant=globex", null)
                .body();
        assertThat(verification.path("intact").asBoolean()).isFalse();
        assertThat(verification.path("brokenAt").asLong()).isEqualTo(second);
        assertThat(verification.path("problem").asString()).isEqualTo("its content does not match its hash");
        assertThat(verification.path("verified").asLong()).isEqualTo(second - 1);
    }
}
