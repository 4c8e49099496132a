package dev.airlock.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The auditor's console pages through MockMvc: who gets which page, legal holds from the run
 * page, refusals rendered as pages (never stack traces), and forms that need the CSRF token.
 */
@AirlockIntegrationTest
class AuditConsoleIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    /** A page as a configured person, signed in through the form login. */
    private MockHttpServletResponse get(String path, String person) {
        return mvc.get()
                .uri(path)
                .session(new AgentApi(mvc).session(person))
                .exchange()
                .getResponse();
    }

    private MvcTestResult post(String path, boolean withCsrf, String person) {
        var request = mvc.post().uri(path).session(new AgentApi(mvc).session(person));
        if (withCsrf) {
            request = request.with(csrf());
        }
        return request.exchange();
    }

    @Test
    void searchPageListsTheTenantsRunsAndRefusesOthers() throws Exception {
        String runId = new AgentApi(mvc)
                .run(AgentApi.ACME, "echo", "{\"message\":\"console-search\"}")
                .text("runId");
        MockHttpServletResponse page = get("/console/audit?tenant=acme&q=console-search&tool=echo", "erin");
        assertThat(page.getStatus()).isEqualTo(200);
        assertThat(page.getContentAsString())
                .contains("/console/audit/runs/" + runId + "?tenant=acme")
                .contains("format=csv", "format=jsonl");

        MockHttpServletResponse other = get("/console/audit?tenant=globex", "erin");
        assertThat(other.getStatus()).isEqualTo(403);
        assertThat(other.getContentAsString())
                .contains("You are not an auditor of that tenant.")
                .doesNotContain("Exception");
        // A link's tenant is not echoed: no text of its choosing on the console's own page.
        MockHttpServletResponse spoof = get("/console/audit?tenant=Session-expired-call-ZZZ-marker", "erin");
        assertThat(spoof.getStatus()).isEqualTo(403);
        assertThat(spoof.getContentAsString()).doesNotContain("ZZZ-marker");
        MockHttpServletResponse bad = get("/console/audit?tenant=acme&q=ab", "erin");
        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(bad.getContentAsString()).contains("q must be 3 to 200 characters long");
        assertThat(get("/console/audit", "alice").getContentAsString())
                .contains("You are not an auditor of any tenant.");
        assertThat(get("/console/audit/runs/" + runId + "?tenant=globex", "dave")
                        .getStatus())
                .isEqualTo(404);
        assertThat(get("/console/audit/runs/not-a-uuid?tenant=acme", "erin").getStatus())
                .isEqualTo(404);
    }

    @Test
    void aRunsPageListsTheAgentsRunsOfTheToolBeforeItNotAfter() throws Exception {
        AgentApi api = new AgentApi(mvc);
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            ids.add(api.park(AgentApi.ACME, "deploy", "{\"service\":\"recent-" + i + "\"}"));
        }
        // (The decision context is on the page of a run that asked people.) The fifth run's page
        // lists the four before it, newest first, and none of the two after it.
        String page = get("/console/runs/" + ids.get(4), "frank").getContentAsString();
        String recent = page.substring(page.indexOf("id=\"recent-runs\""));
        recent = recent.substring(0, recent.indexOf("</ul>"));
        assertThat(recent).doesNotContain(ids.get(4), ids.get(5), ids.get(6));
        List<String> listed = java.util.regex.Pattern.compile("/console/runs/([0-9a-f-]{36})")
                .matcher(recent)
                .results()
                .map(m -> m.group(1))
                .toList();
        assertThat(listed).startsWith(ids.get(3), ids.get(2), ids.get(1), ids.get(0));
        // The last one's page lists the five before it.
        String last = get("/console/runs/" + ids.get(6), "frank").getContentAsString();
        assertThat(java.util.regex.Pattern.compile("/console/runs/([0-9a-f-]{36})")
                        .matcher(last.substring(last.indexOf("id=\"recent-runs\"")))
                        .results()
                        .map(m -> m.group(1))
                        .limit(5)
                        .toList())
                .containsExactly(ids.get(5), ids.get(4), ids.get(3), ids.get(2), ids.get(1));
        for (String id : ids) {
            String digest = api.digest("bob", id);
            assertThat(api.asHuman(
                                    "bob",
                                    "POST",
                                    "/api/v1/approvals/" + id + "/decisions",
                                    "{\"decision\":\"DENY\",\"reason\":\"test over\",\"digest\":\"" + digest + "\"}")
                            .status())
                    .as("nothing left waiting for the other tests")
                    .isEqualTo(200);
        }
    }

    @Test
    void tenantAdministratorsPlaceAndReleaseLegalHoldsFromTheRunPage() throws Exception {
        String runId = new AgentApi(mvc)
                .run(AgentApi.ACME, "echo", "{\"message\":\"hold me\"}")
                .text("runId");
        String runPage = "/console/audit/runs/" + runId + "?tenant=acme";
        String admin = "frank";
        assertThat(get(runPage, admin).getContentAsString()).contains("id=\"place-hold\"");
        assertThat(get(runPage, "erin").getContentAsString()).doesNotContain("place-hold");

        MvcTestResult noHold = post(
                "/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=release&reason=none", true, admin);
        assertThat((String) noHold.getMvcResult().getFlashMap().get("error"))
                .isEqualTo("This run has no legal hold to release.");
        assertThat(post(
                                "/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=Place&reason=typo",
                                true,
                                admin)
                        .getResponse()
                        .getStatus())
                .as("only an exact action counts")
                .isEqualTo(400);
        assertThat(get(runPage, admin).getContentAsString()).doesNotContain("Legal hold by");

        String hold = "/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=place&reason=audit-2026";
        assertThat(post(hold, false, admin).getResponse().getStatus())
                .as("without the CSRF token")
                .isEqualTo(403);
        assertThat(post(hold, true, "erin").getResponse().getStatus())
                .as("auditors do not place holds")
                .isEqualTo(403);
        MockHttpServletResponse placed = post(hold, true, admin).getResponse();
        assertThat(placed.getStatus()).isEqualTo(302);
        assertThat(placed.getRedirectedUrl()).isEqualTo(runPage);
        assertThat(get(runPage, admin).getContentAsString())
                .contains("Legal hold by frank since")
                .contains("audit-2026")
                .contains("id=\"release-hold\"");

        assertThat(post(
                                "/console/audit/runs/" + runId + "/legal-hold?tenant=acme&action=release&reason=done",
                                true,
                                admin)
                        .getResponse()
                        .getStatus())
                .isEqualTo(302);
        assertThat(get(runPage, admin).getContentAsString()).doesNotContain("Legal hold by");

        // A tenant administrator who does not audit holds from the same page, and is offered no raw access.
        String tina = get(runPage, "tina").getContentAsString();
        assertThat(tina).contains("id=\"place-hold\"").doesNotContain("id=\"request-grant\"");
        assertThat(post(hold, true, "tina").getResponse().getStatus()).isEqualTo(302);
        assertThat(get(runPage, "tina").getContentAsString()).contains("Legal hold by tina since");
        assertThat(get("/console/audit/runs/" + runId + "?tenant=acme", "alice").getStatus())
                .as("an approver does not read it")
                .isEqualTo(403);
    }

    @Test
    void aRefusedGrantIsAPageThatSaysWhy() throws Exception {
        String runId = new AgentApi(mvc)
                .run(AgentApi.ACME, "echo", "{\"message\":\"refused\"}")
                .text("runId");
        MvcTestResult requested =
                post("/console/audit/runs/" + runId + "/raw-grants?tenant=acme&reason=check", true, "erin");
        assertThat(requested.getResponse().getStatus()).isEqualTo(302);
        String grantsPage = get("/console/audit/grants", "erin").getContentAsString();
        assertThat(grantsPage).contains("PENDING · asked by erin");
        String grantId = newestGrant("erin");
        MockHttpServletResponse viewer = get("/console/audit/grants/" + grantId + "/hexdump", "erin");
        assertThat(viewer.getStatus()).isEqualTo(403);
        assertThat(viewer.getContentAsString()).contains("Raw access refused", "This grant is pending.");
        MvcTestResult noReason = post("/console/audit/runs/" + runId + "/raw-grants?tenant=acme", true, "erin");
        assertThat(noReason.getResponse().getStatus()).isEqualTo(302);
        assertThat((String) noReason.getMvcResult().getFlashMap().get("error"))
                .isEqualTo("Say why you need the raw bytes.");
    }

    @Test
    void anotherAuditorRefusesARawAccessRequestFromTheRunPage() throws Exception {
        String runId = new AgentApi(mvc)
                .run(AgentApi.ACME, "echo", "{\"message\":\"refuse me\"}")
                .text("runId");
        String runPage = "/console/audit/runs/" + runId + "?tenant=acme";
        assertThat(post("/console/audit/runs/" + runId + "/raw-grants?tenant=acme&reason=curious", true, "bob")
                        .getResponse()
                        .getStatus())
                .isEqualTo(302);
        String grantId = newestGrant("bob");
        assertThat(get(runPage, "frank").getContentAsString())
                .contains("id=\"grant-" + grantId + "\"")
                .contains("value=\"REFUSE\"");

        for (String inexact : List.of("grant", "x", "")) {
            assertThat(post("/console/audit/grants/" + grantId + "/decision?decision=" + inexact, true, "frank")
                            .getResponse()
                            .getStatus())
                    .as("only an exact decision counts: '%s'", inexact)
                    .isEqualTo(400);
        }
        assertThat(get(runPage, "frank").getContentAsString()).contains("value=\"REFUSE\"");

        String decision = "/console/audit/grants/" + grantId + "/decision?decision=REFUSE&reason=not+for+curiosity";
        assertThat(post(decision, false, "frank").getResponse().getStatus())
                .as("without the CSRF token")
                .isEqualTo(403);
        MvcTestResult refused = post(decision, true, "frank");
        assertThat(refused.getResponse().getStatus()).isEqualTo(302);
        assertThat(refused.getResponse().getRedirectedUrl()).isEqualTo(runPage);
        assertThat((String) refused.getMvcResult().getFlashMap().get("message")).isEqualTo("Request refused.");

        String page = get(runPage, "bob").getContentAsString();
        String row = page.substring(page.indexOf("id=\"grant-" + grantId + "\""));
        row = row.substring(0, row.indexOf("</li>"));
        assertThat(row).contains("REFUSED", "decided by frank").doesNotContain("open-hex", "open-view", "download");
        MockHttpServletResponse viewer = get("/console/audit/grants/" + grantId + "/hexdump", "bob");
        assertThat(viewer.getStatus()).isEqualTo(403);
        assertThat(viewer.getContentAsString()).contains("Raw access refused", "This grant is refused.");

        MvcTestResult again = post("/console/audit/grants/" + grantId + "/decision?decision=GRANT", true, "erin");
        assertThat((String) again.getMvcResult().getFlashMap().get("error"))
                .isEqualTo("This request was refused by frank.");
        assertThat(get("/console/audit/grants/" + grantId + "/audit-view", "bob")
                        .getStatus())
                .isEqualTo(403);
    }

    /** The id of the newest raw-access grant the person can see. */
    private String newestGrant(String person) throws Exception {
        MockHttpServletResponse grants = get("/api/v1/audit/raw-grants", person);
        return new tools.jackson.databind.json.JsonMapper()
                .readTree(grants.getContentAsString())
                .get(0)
                .path("id")
                .asString();
    }
}
