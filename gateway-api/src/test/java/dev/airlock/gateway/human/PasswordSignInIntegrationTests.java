package dev.airlock.gateway.human;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The configured people (application-test.yaml) sign in through the console's form login and
 * get exactly the roles their configuration gives them in each tenant, as {@code ROLE:tenant};
 * nobody else gets in. The other MockMvc tests sign in the same way.
 */
@AirlockIntegrationTest
class PasswordSignInIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "alice  | APPROVER:acme",
                "bob    | APPROVER:acme AUDITOR:acme",
                "dave   | APPROVER:globex AUDITOR:globex TENANT_ADMIN:globex",
                "erin   | AUDITOR:acme",
                "frank  | AUDITOR:acme TENANT_ADMIN:acme",
                "ann    | APPROVER:archive",
                "arthur | AUDITOR:archive",
                "amber  | TENANT_ADMIN:archive",
                "pam    | PLATFORM_ADMIN"
            })
    void aConfiguredPersonSignsInWithTheirConfiguredRoles(String person, String roles) {
        MockHttpSession session = new AgentApi(mvc).signIn(person);
        SecurityContext context = (SecurityContext)
                session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
        assertThat(context.getAuthentication().getName()).isEqualTo(person);
        // Besides the roles, Spring Security records how the person signed in (FACTOR_PASSWORD).
        assertThat(context.getAuthentication().getAuthorities())
                .extracting(GrantedAuthority::getAuthority)
                .filteredOn(authority -> !authority.startsWith("FACTOR_"))
                .containsExactlyInAnyOrder(roles.split(" "));
    }

    @Test
    void aWrongPasswordOrAnUnknownPersonIsRefused() {
        AgentApi api = new AgentApi(mvc);
        assertThatThrownBy(() -> api.signIn("alice", "bob-password"))
                .hasMessageContaining("signing in as alice failed");
        assertThatThrownBy(() -> api.signIn("mallory", "mallory-password"))
                .hasMessageContaining("signing in as mallory failed");
        assertThatThrownBy(() -> api.signIn("alice", "")).hasMessageContaining("signing in as alice failed");
    }

    @Test
    void theConsoleAndTheApproverApiNeedASignedInPerson() {
        assertThat(mvc.get().uri("/console").accept(MediaType.TEXT_HTML).exchange())
                .hasStatus3xxRedirection()
                .redirectedUrl()
                .endsWith("/login");
        assertThat(mvc.get().uri("/api/v1/approvals").exchange()).hasStatus(401);
        MockHttpSession alice = new AgentApi(mvc).signIn("alice");
        assertThat(mvc.get().uri("/console").session(alice).exchange()).hasStatusOk();
        assertThat(mvc.get().uri("/api/v1/approvals").session(alice).exchange()).hasStatusOk();
    }
}
