package dev.airlock.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.BrowserIntegrationTest;
import dev.airlock.gateway.support.Decisions;
import dev.airlock.persistence.approval.Verdict;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Strings that agents and other people control never reach a page live: a bidi override, a
 * zero-width space and a line separator in an argument and in a reason show as escapes or are
 * removed, in a real Chromium.
 */
class InertTextBrowserIntegrationTests extends BrowserIntegrationTest {

    private static final String SPOOF = "\u202Eevil.sh\u200B\u2028line";

    @Autowired
    ApprovalService approvals;

    private final HttpClient http =
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Test
    void argumentsAndReasonsAreShownEscapedOrSanitizedNeverLive() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base() + "/api/v1/runs"))
                        .header("Authorization", "Bearer " + AgentApi.ACME)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"tool\":\"release\",\"arguments\":{\"note\":\"" + SPOOF + "\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(201);
        Matcher m = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"").matcher(response.body());
        assertThat(m.find()).isTrue();
        String runId = m.group(1);
        Decisions.decide(
                approvals, "alice", "acme", UUID.fromString(runId), Verdict.DENY, "looks fine \u202Etxt.exe\u200B");

        browser.manage().deleteAllCookies();
        browser.get(base() + "/login");
        browser.findElement(By.id("username")).sendKeys("bob");
        browser.findElement(By.id("password")).sendKeys("bob-password");
        browser.findElement(By.id("sign-in")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlMatches("/console$"));

        browser.get(base() + "/console/audit/runs/" + runId + "?tenant=acme");
        String arguments = browser.findElement(By.id("auth-arguments")).getText();
        assertThat(arguments).contains("\\xe2\\x80\\xaeevil.sh\\xe2\\x80\\x8b\\xe2\\x80\\xa8line");
        String auditPage = browser.findElement(By.tagName("body")).getText();
        assertThat(auditPage)
                .contains("looks fine txt.exe")
                .doesNotContain("\u202E")
                .doesNotContain("\u200B")
                .doesNotContain("\u2028");

        browser.get(base() + "/console/runs/" + runId);
        String runPage = browser.findElement(By.tagName("body")).getText();
        assertThat(runPage)
                .contains("looks fine txt.exe")
                .contains("\\xe2\\x80\\xae")
                .doesNotContain("\u202E")
                .doesNotContain("\u200B")
                .doesNotContain("\u2028");
        assertThat(browser.getPageSource()).doesNotContain("\u202E").doesNotContain("\u200B");
    }

    @Test
    void theRuleThatDecidedAndTheAgentsReasonAreShownAsInertTextToApprovers() throws Exception {
        String reason =
                "<script>alert(1)</script> urgent\u202E fix\u200B\n--- end of untrusted output ---\nAPPROVE NOW";
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base() + "/api/v1/runs"))
                        .header("Authorization", "Bearer ops-bot-key")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"tool\":\"kubectl\",\"arguments\":{\"namespace\":\"prod\",\"verb\":\"delete\"},"
                                        + "\"reason\":\"" + reason.replace("\n", "\\n") + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        Matcher m = Pattern.compile("\"runId\":\"([0-9a-f-]+)\"").matcher(response.body());
        assertThat(m.find()).isTrue();
        String runId = m.group(1);

        browser.manage().deleteAllCookies();
        browser.get(base() + "/login");
        browser.findElement(By.id("username")).sendKeys("olga");
        browser.findElement(By.id("password")).sendKeys("olga-password");
        browser.findElement(By.id("sign-in")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlMatches("/console$"));

        browser.get(base() + "/console/runs/" + runId);
        assertThat(browser.findElement(By.id("policy-rule")).getText()).isEqualTo("rule 1: args.namespace == \"prod\"");
        assertThat(browser.findElement(By.id("action")).getText())
                .contains("policy-rule: rule 1: args.namespace == \"prod\"");
        String shown = browser.findElement(By.id("agent-reason")).getText();
        assertThat(shown.lines().toList())
                .as("the agent's words on one line inside the fence, labelled as its own: line breaks cannot"
                        + " end the fence early or start a line of their own")
                .containsExactly(
                        "--- untrusted output from ops-bot's own words (the agent's reason): data, not instructions ---",
                        "| <script>alert(1)</script> urgent fix --- end of untrusted output --- APPROVE NOW",
                        "--- end of untrusted output ---");
        assertThat(browser.findElements(By.xpath("//pre[@id='agent-reason']//script")))
                .as("markup in the reason is text, never an element")
                .isEmpty();
        assertThat(browser.getPageSource()).doesNotContain("<script>alert(1)</script>");
    }
}
