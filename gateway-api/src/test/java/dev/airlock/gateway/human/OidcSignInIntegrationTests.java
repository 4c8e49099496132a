package dev.airlock.gateway.human;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.StubIdentityProvider;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * Sign-in through an OpenID Connect provider, end to end: the sign-in page sends the person to
 * the provider ({@link StubIdentityProvider}, a real HTTP server in the test), the provider sends
 * them back with a code, and the gateway's own security configuration redeems the code, checks
 * the RS256 ID token against the provider's key set, fetches userinfo and maps the roles claim
 * to Airlock's roles.
 */
@AirlockIntegrationTest
class OidcSignInIntegrationTests {

    private final StubIdentityProvider idp = StubIdentityProvider.shared();

    @Autowired
    MockMvcTester mvc;

    @Test
    void theSignInPageOffersTheProviderAndSendsThePersonToIt() {
        assertThat(mvc.get().uri("/login").exchange()).hasStatusOk().bodyText().contains("Sign in with Corp SSO");
        var redirect = mvc.get().uri("/oauth2/authorization/corp").exchange();
        assertThat(redirect).hasStatus3xxRedirection();
        assertThat(redirect.getResponse().getHeader("Location"))
                .startsWith(idp.issuer() + "/authorize?")
                .contains(
                        "client_id=airlock-test",
                        "scope=openid%20profile",
                        "nonce=",
                        "redirect_uri=http://localhost/login/oauth2/code/corp");
    }

    @Test
    void mapsTheRolesClaimToRolesInKnownTenantsOnly() {
        MockHttpSession session = signIn(
                Map.of(
                        "preferred_username",
                        "oscar",
                        "airlock_roles",
                        List.of("APPROVER:acme", "auditor:globex", "APPROVER:nowhere", "ROOT", "PLATFORM_ADMIN")),
                true);
        Authentication person = person(session);
        assertThat(person).as("signed in").isNotNull();
        assertThat(person.getName()).isEqualTo("oscar");
        // Besides the roles, Spring Security records how the person signed in (FACTOR_...).
        assertThat(person.getAuthorities())
                .extracting(GrantedAuthority::getAuthority)
                .filteredOn(authority -> !authority.startsWith("FACTOR_"))
                .containsExactlyInAnyOrder("APPROVER:acme", "AUDITOR:globex", "PLATFORM_ADMIN");

        // The mapped roles are the ones the gateway applies.
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .hasStatusOk();
        assertThat(mvc.get()
                        .uri("/api/v1/audit/runs?tenant=tiny")
                        .session(session)
                        .exchange())
                .as("a platform administrator audits every tenant")
                .hasStatusOk();
    }

    @Test
    void aPersonWithoutTheClaimSignsInWithNoRoles() {
        MockHttpSession session = signIn(Map.of("preferred_username", "nora"), true);
        Authentication person = person(session);
        assertThat(person.getName()).isEqualTo("nora");
        assertThat(person.getAuthorities())
                .extracting(GrantedAuthority::getAuthority)
                .filteredOn(authority -> !authority.startsWith("FACTOR_"))
                .isEmpty();
        assertThat(mvc.get()
                        .uri("/api/v1/audit/runs?tenant=acme")
                        .session(session)
                        .exchange())
                .hasStatus(403);
    }

    @Test
    void refusesAnIdTokenNotSignedByTheProvider() {
        MockHttpSession session = new MockHttpSession();
        MvcTestResult callback = callback(
                session, Map.of("preferred_username", "mallory", "airlock_roles", List.of("PLATFORM_ADMIN")), false);
        assertThat(callback).hasStatus3xxRedirection();
        assertThat(callback.getResponse().getRedirectedUrl()).endsWith("/login?error");
        assertThat(person(session)).isNull();
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .hasStatus(401);
    }

    @Test
    void aPersonSharingAConfiguredPersonsNameNeverUsesTheirRawAccessGrant() {
        AgentApi api = new AgentApi(mvc);
        String runId =
                api.run(AgentApi.ACME, "echo", "{\"message\":\"shared name\"}").text("runId");
        String grant = api.grantedRawAccess("bob", "erin", runId, "acme", "incident 7");
        String hexdump = "/api/v1/audit/raw-grants/" + grant + "/hexdump";
        assertThat(api.asHuman("bob", "GET", hexdump, null).status()).isEqualTo(200);

        // Another person whom the provider calls "bob" too, an auditor of acme there.
        MockHttpSession otherBob =
                signIn(Map.of("preferred_username", "bob", "airlock_roles", List.of("AUDITOR:acme")), true);
        for (String use : List.of("/hexdump", "/audit-view", "/download")) {
            MvcTestResult refused = mvc.get()
                    .uri("/api/v1/audit/raw-grants/" + grant + use)
                    .session(otherBob)
                    .exchange();
            assertThat(refused).as(use).hasStatus(403);
            assertThat(refused).as(use).bodyText().contains("NOT_USABLE").doesNotContain("shared name");
        }
        // On the console's run page the grant offers them no way in either.
        assertThat(mvc.get()
                        .uri("/console/audit/runs/" + runId + "?tenant=acme")
                        .session(otherBob)
                        .exchange())
                .hasStatusOk()
                .bodyText()
                .doesNotContain("/console/audit/grants/" + grant + "/hexdump");
        assertThat(mvc.get()
                        .uri("/console/audit/runs/" + runId + "?tenant=acme")
                        .session(api.session("bob"))
                        .exchange())
                .bodyText()
                .contains("/console/audit/grants/" + grant + "/hexdump");
    }

    @Test
    void aPersonRenamedAtTheProviderIsStillOnePerson() throws Exception {
        AgentApi api = new AgentApi(mvc);
        // Olga asks for raw access, then signs in again under a new name to grant it herself.
        String runId =
                api.run(AgentApi.ACME, "echo", "{\"message\":\"renamed\"}").text("runId");
        MockHttpSession olga = signIn(
                Map.of("sub", "subject-olga", "preferred_username", "olga", "airlock_roles", List.of("AUDITOR:acme")),
                true);
        MvcTestResult asked =
                post(olga, "/api/v1/audit/runs/" + runId + "/raw-grants?tenant=acme", "{\"reason\":\"my own\"}");
        assertThat(asked).hasStatus(201);
        String grant = api.parse(asked).text("id");
        MockHttpSession renamed = signIn(
                Map.of("sub", "subject-olga", "preferred_username", "olga-2", "airlock_roles", List.of("AUDITOR:acme")),
                true);
        MvcTestResult selfGranted =
                post(renamed, "/api/v1/audit/raw-grants/" + grant + "/decision", "{\"decision\":\"GRANT\"}");
        assertThat(selfGranted).hasStatus(409).bodyText().contains("SELF_APPROVAL");
        assertThat(api.asHuman("bob", "GET", "/api/v1/audit/raw-grants/" + grant, null)
                        .text("status"))
                .isEqualTo("PENDING");

        // An approver approves a run that needs two people, then approves it again under a new name.
        String deploy = api.park(AgentApi.ACME, "deploy", "{\"service\":\"billing\"}");
        String digest = api.digest("bob", deploy);
        String decision = "{\"decision\":\"APPROVE\",\"digest\":\"" + digest + "\"}";
        try {
            MockHttpSession pat = signIn(
                    Map.of(
                            "sub",
                            "subject-pat",
                            "preferred_username",
                            "pat",
                            "airlock_roles",
                            List.of("APPROVER:acme")),
                    true);
            assertThat(decide(pat, deploy, decision)).hasStatusOk();
            MockHttpSession patAgain = signIn(
                    Map.of(
                            "sub",
                            "subject-pat",
                            "preferred_username",
                            "pat-2",
                            "airlock_roles",
                            List.of("APPROVER:acme")),
                    true);
            assertThat(decide(patAgain, deploy, decision))
                    .hasStatus(409)
                    .bodyText()
                    .contains("ALREADY_DECIDED");
            assertThat(waitingFor(patAgain)).as("nor is it waiting for them").doesNotContain(deploy);
            MockHttpSession quinn =
                    signIn(Map.of("preferred_username", "quinn", "airlock_roles", List.of("APPROVER:acme")), true);
            assertThat(waitingFor(quinn))
                    .as("while it waits for a second person")
                    .contains(deploy);
            assertThat(api.asHuman("bob", false, "GET", "/api/v1/approvals/" + deploy, null)
                            .body()
                            .path("summary")
                            .path("status")
                            .asString())
                    .isEqualTo("PENDING");
        } finally {
            // Nothing left waiting for the other tests of this shared context, whatever happened above.
            api.asHuman(
                    "bob",
                    "POST",
                    "/api/v1/approvals/" + deploy + "/decisions",
                    "{\"decision\":\"DENY\",\"reason\":\"test over\",\"digest\":\"" + digest + "\"}");
        }
    }

    /** The console's "Waiting for you" section as the person sees it. */
    private String waitingFor(MockHttpSession session) throws java.io.UnsupportedEncodingException {
        String page = mvc.get()
                .uri("/console")
                .session(session)
                .exchange()
                .getResponse()
                .getContentAsString();
        return page.substring(page.indexOf("id=\"waiting-heading\""), page.indexOf("id=\"others-heading\""));
    }

    private MvcTestResult decide(MockHttpSession session, String runId, String body) {
        return post(session, "/api/v1/approvals/" + runId + "/decisions", body);
    }

    /** A JSON POST in a signed-in session, with the CSRF token. */
    private MvcTestResult post(MockHttpSession session, String uri, String body) {
        return mvc.post()
                .uri(uri)
                .session(session)
                .with(csrf().asHeader())
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    /** Signs in at the provider with these claims and checks that the gateway lets the person into the console. */
    private MockHttpSession signIn(Map<String, Object> claims, boolean signedByTheProvider) {
        MockHttpSession session = new MockHttpSession();
        MvcTestResult callback = callback(session, claims, signedByTheProvider);
        assertThat(callback).hasStatus3xxRedirection();
        assertThat(callback.getResponse().getRedirectedUrl()).endsWith("/console");
        MockHttpSession signedIn = (MockHttpSession) callback.getRequest().getSession(false);
        assertThat(mvc.get().uri("/console").session(signedIn).exchange()).hasStatusOk();
        return signedIn;
    }

    /** The browser's round trip: to the provider, the person signs in there, and back to the gateway's callback. */
    private MvcTestResult callback(MockHttpSession session, Map<String, Object> claims, boolean signedByTheProvider) {
        MvcTestResult start =
                mvc.get().uri("/oauth2/authorization/corp").session(session).exchange();
        assertThat(start).hasStatus3xxRedirection();
        URI back = idp.authorize(URI.create(start.getResponse().getHeader("Location")), claims, signedByTheProvider);
        assertThat(back.getPath()).isEqualTo("/login/oauth2/code/corp");
        return mvc.get().uri(back).session(session).exchange();
    }

    private static Authentication person(MockHttpSession session) {
        SecurityContext context = (SecurityContext)
                session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
        return context == null ? null : context.getAuthentication();
    }
}
