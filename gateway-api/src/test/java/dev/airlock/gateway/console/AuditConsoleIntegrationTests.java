package dev.airlock.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The auditor's console pages through MockMvc: who gets which page, legal holds from the run
 * page, refusals rendered as pages (never stack traces), and forms that need the CSRF token.
 */
@AirlockIntegrationTest
class AuditConsoleIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    private MockHttpServletResponse get(String path, String... authorities) {
        return mvc.get().uri(path).with(user("pat").authorities(granted(authorities))).exchange().getResponse();
    }

    private MockHttpServletResponse post(String path, boolean withCsrf, String... authorities) {
        var request = mvc.post().uri(path).with(user("pat").authorities(granted(authorities)));
        if (withCsrf) {
            request = request.with(csrf());
        }
        return request.exchange().getResponse();
    }

    private static java.util.List<SimpleGrantedAuthority> granted(String... authorities) {
        return java.util.Arrays.stream(authorities).map(SimpleGrantedAuthority::new).toList();
    }

    @Test
    void searchPageListsTheTenantsRunsAndRefusesOthers() throws Exception {
        String runId = new AgentApi(mvc).run(AgentApi.ACME, "echo", "{\"message\":\"console-search\"}").text("runId");
        MockHttpServletResponse page = get("/console/audit?tenant=acme&q=console-search&tool=echo", "AUDITOR:acme");
        assertThat(page.getStatus()).isEqualTo(200);
        assertThat(page.getContentAsString()).contains("/console/audit/runs/" + runId + "?tenant=acme")
                .contains("format=csv", "format=jsonl");

        MockHttpServletResponse other = get("/console/audit?tenant=globex", "AUDITOR:acme");
        assertThat(other.getStatus()).isEqualTo(403);
        assertThat(other.getContentAsString()).contains("You are not an auditor of tenant &#39;globex&#39;.").doesNotContain("Exception");
        MockHttpServletResponse bad = get("/console/audit?tenant=acme&q=ab", "AUDITOR:acme");
        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(bad.getContentAsString()).contains("q must be 3 to 200 characters long");
        assertThat(get("/console/audit", "APPROVER:acme").getContentAsString()).contains("You are not an auditor of any tenant.");
        assertThat(get("/console/audit/runs/" + runId + "?tenant=globex", "AUDITOR:globex").getStatus()).isEqualTo(404);
        assertThat(get("/console/audit/runs/not-a-uuid?tenant=acme", "AUDITOR:acme").getStatus()).isEqualTo(404);
    }

    @Test
    void tenantAdministratorsPlaceAndReleaseLegalHoldsFromTheRunPage() throws Exception {
        String runId = new AgentApi(mvc).run(AgentApi.ACME, "echo", "{\"message\":\"hold me\"}").text("runId");
        String runPage = "/console/audit/runs/" + runId + "?tenant=acme";
        String[] admin = {"AUDITOR:acme", "TENANT_ADMIN:acme"};
        assertThat(get(runPage, admin).getContentAsString()).contains("id=\"place-hold\"");
        assertThat(get(runPage, "AUDITOR:acme").getContentAsString()).doesNotContain("place-hold");

        String hold = "/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=place&reason=audit-2026";
        assertThat(post(hold, false, admin).getStatus()).as("without the CSRF token").isEqualTo(403);
        assertThat(post(hold, true, "AUDITOR:acme").getStatus()).as("auditors do not place holds").isEqualTo(403);
        MockHttpServletResponse placed = post(hold, true, admin);
        assertThat(placed.getStatus()).isEqualTo(302);
        assertThat(placed.getRedirectedUrl()).isEqualTo(runPage);
        assertThat(get(runPage, admin).getContentAsString()).contains("Legal hold by pat since").contains("audit-2026")
                .contains("id=\"release-hold\"");

        assertThat(post("/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=release&reason=done", true, admin)
                .getStatus()).isEqualTo(302);
        assertThat(get(runPage, admin).getContentAsString()).doesNotContain("Legal hold by");
    }

    @Test
    void aRefusedGrantIsAPageThatSaysWhy() throws Exception {
        String runId = new AgentApi(mvc).run(AgentApi.ACME, "echo", "{\"message\":\"refused\"}").text("runId");
        MockHttpServletResponse requested = post("/console/audit/runs/" + runId + "/raw-grants?tenant=acme&reason=check", true,
                "AUDITOR:acme");
        assertThat(requested.getStatus()).isEqualTo(302);
        String grantsPage = get("/console/audit/grants", "AUDITOR:acme").getContentAsString();
        assertThat(grantsPage).contains("PENDING · asked by pat");
        MockHttpServletResponse early = get("/api/v1/audit/raw-grants", "AUDITOR:acme");
        String grantId = new tools.jackson.databind.json.JsonMapper().readTree(early.getContentAsString()).get(0).path("id").asString();
        MockHttpServletResponse viewer = get("/console/audit/grants/" + grantId + "/hexdump", "AUDITOR:acme");
        assertThat(viewer.getStatus()).isEqualTo(403);
        assertThat(viewer.getContentAsString()).contains("Raw access refused", "This grant is pending.");
        var noReason = mvc.post().uri("/console/audit/runs/" + runId + "/raw-grants?tenant=acme")
                .with(user("pat").authorities(granted("AUDITOR:acme"))).with(csrf()).exchange();
        assertThat(noReason.getResponse().getStatus()).isEqualTo(302);
        assertThat((String) noReason.getMvcResult().getFlashMap().get("error")).isEqualTo("Say why you need the raw bytes.");
    }
}
