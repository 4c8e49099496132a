package dev.airlock.gateway.approval;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;

import dev.airlock.gateway.human.AccessTokens;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.persistence.token.AccessToken;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** A person creates a token in the console; a bot decides with it; revoking it shuts the bot out. */
@AirlockIntegrationTest
class AccessTokenIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    AccessTokens tokens;

    private MvcTestResult withToken(String token, String method, String path, String body) {
        var request = method.equals("POST")
                ? mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body)
                : mvc.get().uri(path);
        return request.header("Authorization", "Bearer " + token).exchange();
    }

    @Test
    void aBotDecidesWithItsOwnersTokenUntilItIsRevoked() throws Exception {
        AgentApi api = new AgentApi(mvc);
        MvcTestResult created = mvc.post().uri("/console/tokens").param("name", "chat bot").session(api.session("alice"))
                .with(csrf()).exchange();
        assertThat(created).hasStatus3xxRedirection();
        AccessTokens.Created token = (AccessTokens.Created) created.getMvcResult().getFlashMap().get("created");
        assertThat(token.token()).startsWith("alp_");

        String runId = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"bot approved\"}}").text("runId");
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatusOk().bodyText().contains(runId);
        String digest = api.asHuman("alice", false, "GET", "/api/v1/approvals/" + runId, null)
                .body().path("summary").path("digest").asString();
        assertThat(withToken(token.token(), "POST", "/api/v1/approvals/" + runId + "/decisions",
                "{\"decision\":\"APPROVE\",\"reason\":\"via bot\",\"digest\":\"" + digest + "\"}")).hasStatusOk();
        assertThat(api.get(ACME, "/api/v1/runs/" + runId + "?wait=PT20S").body().path("approval").path("decisions").get(0)
                .path("approver").asString()).isEqualTo("alice");

        List<AccessToken> listed = tokens.list("alice");
        assertThat(listed).anySatisfy(t -> {
            assertThat(t.name()).isEqualTo("chat bot");
            assertThat(t.lastUsedAt()).isNotNull();
        });
        AccessToken stored = listed.stream().filter(t -> t.name().equals("chat bot")).findFirst().orElseThrow();
        assertThat(mvc.post().uri("/console/tokens/" + stored.id() + "/revoke").session(api.session("alice"))
                .with(csrf()).exchange()).hasStatus3xxRedirection();
        assertThat(withToken(token.token(), "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken("alp_forged", "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken(ACME, "GET", "/api/v1/approvals", null)).hasStatus(401);
        assertThat(withToken(token.token(), "GET", "/api/v1/tools", null)).hasStatus(401);
    }
}
