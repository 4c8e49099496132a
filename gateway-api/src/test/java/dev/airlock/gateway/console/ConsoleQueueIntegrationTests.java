package dev.airlock.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.approval.request.ApprovalService;
import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The console's queue with more requests waiting for one approver than it lists: the tool and
 * agent filters narrow the query itself, so a request past the first page is found by filtering;
 * the page says when more wait than it lists; and no request that waits for the approver is shown
 * among the "other" requests, listed or not.
 */
@AirlockIntegrationTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleQueueIntegrationTests {

    private static final String CROWD = "crowd-bot-key";

    private static final Pattern QUEUE_LINK = Pattern.compile("href=\"/console/runs/([0-9a-f-]{36})\"");

    @Autowired
    MockMvcTester mvc;

    /** One more lever request than the queue lists, then a valve request, which expires last. */
    private final List<String> levers = new ArrayList<>();

    private String valve = "";

    @BeforeAll
    void parkMoreRequestsThanTheQueueLists() {
        AgentApi api = new AgentApi(mvc);
        for (int i = 0; i <= ApprovalService.WAITING_PAGE; i++) {
            levers.add(api.park(CROWD, "lever", "{}"));
        }
        valve = api.park(CROWD, "valve", "{}");
    }

    @Test
    void aRequestPastTheFirstPageIsFoundByItsTool() throws Exception {
        String page = queue("/console?tool=valve");
        assertThat(runIds(section(page, "waiting-heading", "others-heading"))).containsExactly(valve);
        assertThat(page).doesNotContain("id=\"waiting-more\"");
        assertThat(queue("/console?tool=valve&agent=another-bot"))
                .as("the agent filter narrows it too")
                .contains("id=\"waiting-empty\"");
        assertThat(runIds(section(
                        queue("/console?tool=valve&agent=bot&tenant=crowd"), "waiting-heading", "others-heading")))
                .containsExactly(valve);
    }

    @Test
    void theQueueSaysWhenMoreWaitThanItListsAndListsTheFirstToExpire() throws Exception {
        String page = queue("/console");
        assertThat(page).contains("id=\"waiting-more\"", "(" + (levers.size() + 1) + " waiting for you)");
        List<String> waiting = runIds(section(page, "waiting-heading", "others-heading"));
        assertThat(waiting).containsExactlyElementsOf(levers.subList(0, ApprovalService.WAITING_PAGE));
        assertThat(queue("/console?tool=lever")).contains("id=\"waiting-more\"");
    }

    @Test
    void requestsWaitingForThePersonBeyondTheListAreNotAmongTheOthers() throws Exception {
        String page = queue("/console");
        List<String> others = runIds(section(page, "others-heading", "</main>"));
        assertThat(others)
                .as("the newest requests all wait for cory, listed above or not")
                .isEmpty();
        assertThat(page).contains("id=\"queue-empty\"");
    }

    private String queue(String path) throws Exception {
        MockHttpServletResponse response = mvc.get()
                .uri(path)
                .session(new AgentApi(mvc).session("cory"))
                .exchange()
                .getResponse();
        assertThat(response.getStatus()).isEqualTo(200);
        return response.getContentAsString();
    }

    private static String section(String page, String from, String to) {
        int start = page.indexOf(from);
        int end = page.indexOf(to, start);
        assertThat(start).as(from).isNotNegative();
        assertThat(end).as(to).isGreaterThan(start);
        return page.substring(start, end);
    }

    private static List<String> runIds(String html) {
        List<String> ids = new ArrayList<>();
        Matcher link = QUEUE_LINK.matcher(html);
        while (link.find()) {
            ids.add(link.group(1));
        }
        return ids;
    }
}
