package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.oidcLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;

import dev.airlock.approval.people.AccessTokens;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.MovableClock;
import dev.airlock.persistence.approval.ApprovalDecisionRepository;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * A person creates a scoped, expiring token in the console; a bot decides with it within its
 * scopes; revoking or outliving it shuts the bot out. A bearer header never switches CSRF off.
 */
@AirlockIntegrationTest
class AccessTokenIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    MovableClock clock;

    @Autowired
    ApprovalDecisionRepository decisions;

    @Autowired
    dev.airlock.persistence.token.AccessTokenRepository tokens;

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    private static RequestPostProcessor alice() {
        return user("alice").authorities(new SimpleGrantedAuthority("APPROVER:acme"));
    }

    private MvcTestResult withToken(String token, String method, String path, String body) {
        var request = switch (method) {
            case "POST" ->
                mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body);
            case "PUT" ->
                mvc.put().uri(path).contentType(MediaType.APPLICATION_JSON).content(body);
            default -> mvc.get().uri(path);
        };
        return request.header("Authorization", "Bearer " + token).exchange();
    }

    private AccessTokens.Created create(RequestPostProcessor who, String name, String days, String... scopes) {
        var request =
                mvc.post().uri("/console/tokens").param("name", name).with(who).with(csrf());
        if (days != null) {
            request = request.param("days", days);
        }
        for (String scope : scopes) {
            request = request.param("scope", scope);
        }
        MvcTestResult created = request.exchange();
        assertThat(created).hasStatus3xxRedirection();
        return (AccessTokens.Created) created.getMvcResult().getFlashMap().get("created");
    }

    private String pendingRelease(AgentApi api, String note) {
        return api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"" + note + "\"}}")
                .text("runId");
    }

    @Test
    void aBotDecidesWithItsOwnersTokenUntilItIsRevoked() throws Exception {
        AccessTokens.Created token = create(alice(), "chat bot", null, "approvals:read", "approvals:decide");
        assertThat(token.token()).startsWith("alp_");
        assertThat(token.scopes()).containsExactlyInAnyOrder("approvals:read", "approvals:decide");
        assertThat(token.expiresAt())
                .isBetween(
                        clock.instant().plus(Duration.ofDays(30)).minusSeconds(60),
                        clock.instant().plus(Duration.ofDays(30)));

        AgentApi api = new AgentApi(mvc);
        String runId = pendingRelease(api, "bot approved");
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null))
                .hasStatusOk()
                .bodyText()
                .contains(runId);
        assertThat(withToken(
                        token.token(),
                        "POST",
                        "/api/v1/approvals/" + runId + "/decisions",
                        "{\"decision\":\"APPROVE\",\"reason\":\"via bot\",\"digest\":\"" + api.digest("alice", runId)
                                + "\"}"))
                .hasStatusOk();
        assertThat(api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S")
                        .body()
                        .path("approval")
                        .path("decisions")
                        .get(0)
                        .path("approver")
                        .asString())
                .isEqualTo("alice");

        MvcTestResult page = mvc.get().uri("/console/tokens").with(alice()).exchange();
        assertThat(page)
                .hasStatusOk()
                .bodyText()
                .contains("chat bot")
                .contains("approvals:decide approvals:read")
                .contains("expires " + token.expiresAt());

        UUID id = listedId(alice(), "chat bot");
        assertThat(asConsole(() -> tokens.findById(id)).orElseThrow().lastUsedAt())
                .isNotNull();
        assertThat(mvc.post()
                        .uri("/console/tokens/" + id + "/revoke")
                        .with(alice())
                        .with(csrf())
                        .exchange())
                .hasStatus3xxRedirection();
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken("alp_forged", "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken(ACME, "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken(token.token(), "GET", "/api/v1/tools", null)).hasStatus(401);
    }

    private UUID listedId(RequestPostProcessor who, String name) throws Exception {
        String html = mvc.get()
                .uri("/console/tokens")
                .with(who)
                .exchange()
                .getResponse()
                .getContentAsString();
        int at = html.indexOf(name);
        assertThat(at).as("token %s listed", name).isPositive();
        var matcher = java.util.regex.Pattern.compile("/console/tokens/([0-9a-f-]{36})/revoke")
                .matcher(html.substring(at));
        assertThat(matcher.find()).isTrue();
        return UUID.fromString(matcher.group(1));
    }

    @Test
    void aTokenActsOnlyWithinItsScopes() {
        AccessTokens.Created reader = create(alice(), "reader", "7", "approvals:read");
        AgentApi api = new AgentApi(mvc);
        String runId = pendingRelease(api, "scoped");
        assertThat(withToken(reader.token(), "GET", "/api/v1/approvals/" + runId, null))
                .hasStatusOk();
        MvcTestResult refused = withToken(
                reader.token(),
                "POST",
                "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"digest\":\"" + api.digest("alice", runId) + "\"}");
        assertThat(refused).hasStatus(403).bodyText().contains("approvals:decide");
        assertThat(asConsole(() -> decisions.findByRunIdOrderByDecidedAtAsc(UUID.fromString(runId))))
                .isEmpty();
        assertThat(withToken(reader.token(), "GET", "/api/v1/audit/runs?tenant=acme", null))
                .hasStatus(403);
        assertThat(withToken(
                        reader.token(),
                        "PUT",
                        "/api/v1/audit/runs/" + runId + "/legal-hold?tenant=acme",
                        "{\"reason\":\"tokens place no holds\"}"))
                .hasStatus(403)
                .bodyText()
                .contains("may not make this request");

        AccessTokens.Created auditor = create(
                user("bob").authorities(new SimpleGrantedAuthority("AUDITOR:acme")), "auditor", "7", "audit:read");
        assertThat(withToken(auditor.token(), "GET", "/api/v1/audit/runs?tenant=acme", null))
                .hasStatusOk();
        assertThat(withToken(auditor.token(), "GET", "/api/v1/approvals", null)).hasStatus(403);
        // The raw bytes need raw:access however their path is spelled.
        for (String path : new String[] {
            "/api/v1/audit/raw-gr%61nts/" + java.util.UUID.randomUUID() + "/download?stream=stdout",
            "/api/v1/audit/raw-grants/" + java.util.UUID.randomUUID() + "/download?stream=stdout"
        }) {
            MvcTestResult raw = mvc.get()
                    .uri(java.net.URI.create(path))
                    .header("Authorization", "Bearer " + auditor.token())
                    .exchange();
            assertThat(raw.getResponse().getStatus()).as(path).isIn(400, 403);
        }
    }

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase owner;

    @Test
    void aConfiguredPersonsTokenActsOnlyForThePersonWhoCreatedIt() {
        AccessTokens.Created token = create(alice(), "bound", "7", "approvals:read");
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatusOk();
        String digest = dev.airlock.kernel.digest.Sha256.hex(token.token());
        assertThat(owner.sql("SELECT person_sha256 FROM airlock.access_tokens WHERE token_sha256 = ?")
                        .param(digest)
                        .query(String.class)
                        .single())
                .hasSize(64);
        // As the token of an earlier alice (another password setting), and as one made before the record.
        for (String person : new String[] {dev.airlock.kernel.digest.Sha256.hex("an earlier alice"), null}) {
            owner.sql("UPDATE airlock.access_tokens SET person_sha256 = ? WHERE token_sha256 = ?")
                    .params(person, digest)
                    .update();
            assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null))
                    .as(String.valueOf(person))
                    .hasStatus(401);
        }
    }

    @Test
    void aTokenStopsWorkingWhenItExpires() {
        AccessTokens.Created token = create(alice(), "short-lived", "1", "approvals:read");
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatusOk();
        clock.advance(Duration.ofDays(1).plusSeconds(1));
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatus(401);
    }

    @Test
    void refusesTokensWithoutScopeOrBeyondTheLongestLifetime() {
        for (var request : java.util.List.of(
                mvc.post().uri("/console/tokens").param("name", "no scope"),
                mvc.post()
                        .uri("/console/tokens")
                        .param("name", "too long")
                        .param("scope", "approvals:read")
                        .param("days", "91"),
                mvc.post()
                        .uri("/console/tokens")
                        .param("name", "past any duration")
                        .param("scope", "approvals:read")
                        .param("days", String.valueOf(Long.MAX_VALUE)),
                mvc.post().uri("/console/tokens").param("name", "bad scope").param("scope", "everything"),
                mvc.post().uri("/console/tokens").param("name", "x".repeat(101)).param("scope", "approvals:read"))) {
            MvcTestResult result = request.with(alice()).with(csrf()).exchange();
            assertThat(result).hasStatus3xxRedirection();
            assertThat(result.getMvcResult().getFlashMap().get("created")).isNull();
            assertThat(result.getMvcResult().getFlashMap().get("error")).isNotNull();
        }
    }

    @Test
    void anOidcPersonNamedLikeAConfiguredPersonGetsTokensOfTheirOwn() throws Exception {
        // An OpenID Connect person whose user name is "alice" but who is an auditor elsewhere.
        RequestPostProcessor oidcAlice = oidcLogin()
                .idToken(t -> t.subject("sso-subject-17").claim("preferred_username", "alice"))
                .authorities(new SimpleGrantedAuthority("AUDITOR:acme"));
        AccessTokens.Created token =
                create(oidcAlice, "sso bot", "7", "approvals:read", "approvals:decide", "audit:read");
        AgentApi api = new AgentApi(mvc);
        String runId = pendingRelease(api, "oidc");
        // It acts with the OIDC person's roles (auditor), not with the configured alice's (approver).
        assertThat(withToken(token.token(), "GET", "/api/v1/audit/runs?tenant=acme", null))
                .hasStatusOk();
        assertThat(withToken(
                        token.token(),
                        "POST",
                        "/api/v1/approvals/" + runId + "/decisions",
                        "{\"decision\":\"APPROVE\",\"digest\":\"" + api.digest("alice", runId) + "\"}"))
                .hasStatus(404);
        assertThat(asConsole(() -> decisions.findByRunIdOrderByDecidedAtAsc(UUID.fromString(runId))))
                .isEmpty();
        // The configured alice does not see it, and cannot revoke it.
        String html = mvc.get()
                .uri("/console/tokens")
                .with(alice())
                .exchange()
                .getResponse()
                .getContentAsString();
        assertThat(html).doesNotContain("sso bot");
        // An OIDC-only person's token works.
        RequestPostProcessor zoe = oidcLogin()
                .idToken(t -> t.subject("sso-subject-99").claim("preferred_username", "zoe"))
                .authorities(new SimpleGrantedAuthority("APPROVER:acme"));
        AccessTokens.Created zoes = create(zoe, "zoe bot", "7", "approvals:read");
        assertThat(withToken(zoes.token(), "GET", "/api/v1/approvals", null))
                .hasStatusOk()
                .bodyText()
                .contains(runId);
    }

    @Test
    void aMadeUpBearerHeaderNeverSwitchesCsrfOff() {
        AgentApi api = new AgentApi(mvc);
        String runId = pendingRelease(api, "csrf");
        String digest = api.digest("alice", runId);
        MvcTestResult decided = mvc.post()
                .uri("/console/runs/" + runId + "/decisions")
                .with(alice())
                .header("Authorization", "Bearer alp_anything")
                .param("decision", "APPROVE")
                .param("digest", digest)
                .exchange();
        assertThat(decided.getResponse().getStatus()).isIn(401, 403);
        assertThat(asConsole(() -> decisions.findByRunIdOrderByDecidedAtAsc(UUID.fromString(runId))))
                .isEmpty();

        MvcTestResult token = mvc.post()
                .uri("/console/tokens")
                .with(alice())
                .header("Authorization", "Bearer alp_anything")
                .param("name", "sneaky")
                .param("scope", "approvals:read")
                .exchange();
        assertThat(token.getResponse().getStatus()).isIn(401, 403);
        assertThat(mvc.post()
                        .uri("/api/v1/approvals/" + runId + "/decisions")
                        .with(alice())
                        .header("Authorization", "Bearer alp_anything")
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}")
                        .exchange())
                .hasStatus(401);
        assertThat(mvc.post()
                        .uri("/logout")
                        .with(alice())
                        .header("Authorization", "Bearer alp_anything")
                        .exchange()
                        .getResponse()
                        .getStatus())
                .isIn(401, 403);
        // Without any header, the session still needs its CSRF token.
        assertThat(mvc.post()
                        .uri("/console/runs/" + runId + "/decisions")
                        .with(alice())
                        .param("decision", "APPROVE")
                        .param("digest", digest)
                        .exchange())
                .hasStatus(403);
        assertThat(asConsole(() -> decisions.findByRunIdOrderByDecidedAtAsc(UUID.fromString(runId))))
                .isEmpty();
    }

    /** Reads as the console's database role over the tests' tenant, as the console itself would. */
    private static <T> T asConsole(java.util.function.Supplier<T> read) {
        return dev.airlock.persistence.scope.DatabaseScope.of(
                        dev.airlock.persistence.scope.DatabaseRole.CONSOLE, java.util.List.of("acme"))
                .call(read);
    }
}
