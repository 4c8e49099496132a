package dev.airlock.gateway.run;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/** With structured logging on, every line about a run is one JSON object naming the run, its tenant and the node. */
@AirlockIntegrationTest
@TestPropertySource(properties = {"logging.structured.format.console=ecs", "airlock.node-id=structured-node"})
@ExtendWith(OutputCaptureExtension.class)
class StructuredLogIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Test
    void everyLineAboutARunCarriesItsIdTenantAndNode(CapturedOutput output) {
        String runId = new AgentApi(mvc)
                .run(ACME, "echo", "{\"message\":\"structured\"}")
                .text("runId");
        List<String> aboutTheRun =
                output.getOut().lines().filter(line -> line.contains(runId)).toList();
        assertThat(aboutTheRun)
                .as("the request and the end of the run are logged")
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(aboutTheRun)
                .allSatisfy(line -> assertThat(line)
                        .startsWith("{")
                        .contains("\"runId\":\"" + runId + "\"")
                        .contains("\"tenant\":\"acme\"")
                        .contains("\"node\":\"structured-node\""));
    }
}
