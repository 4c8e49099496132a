package dev.airlock.gateway.security;

import static dev.airlock.gateway.support.AgentApi.ACME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;

import dev.airlock.gateway.support.AgentApi;
import dev.airlock.gateway.support.AirlockIntegrationTest;
import dev.airlock.gateway.support.MovableClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** Holes found by attacking the gateway, each reproduced: guessing passwords, reading others' output, option injection. */
@AirlockIntegrationTest
class SecurityHardeningIntegrationTests {

    @Autowired
    MockMvcTester mvc;

    @Autowired
    dev.airlock.gateway.support.OwnerDatabase jdbc;

    @Autowired
    MovableClock clock;

    @AfterEach
    void resetClockAndLockOuts() {
        clock.reset();
        // Lock-outs outlive the moved clock; other tests sign these people in.
        jdbc.sql("DELETE FROM airlock.login_lockouts").update();
        jdbc.sql("DELETE FROM airlock.login_failures").update();
    }

    private MvcTestResult signIn(String user, String password, String address) {
        return mvc.post()
                .uri("/login")
                .param("username", user)
                .param("password", password)
                .with(csrf())
                .with(request -> {
                    request.setRemoteAddr(address);
                    return request;
                })
                .exchange();
    }

    private static boolean signedIn(MvcTestResult result) {
        return "/console".equals(result.getResponse().getRedirectedUrl());
    }

    @Test
    void aSessionEndsItsLifetimeAfterItsSignInHoweverActiveItIs() {
        // airlock.login.session-max-age is P3650D in the tests (other tests move the clock by days).
        Duration lifetime = Duration.ofDays(3650);
        AgentApi api = new AgentApi(mvc);
        org.springframework.mock.web.MockHttpSession session = api.signIn("alice");
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .hasStatusOk();
        clock.advance(lifetime.minusMinutes(1));
        assertThat(mvc.get().uri("/api/v1/approvals").session(session).exchange())
                .as("within its lifetime, after a day's work")
                .hasStatusOk();
        // Signed in again in the same session (which keeps it, under a new id): timed from that sign-in.
        org.springframework.mock.web.MockHttpSession again = signInWithin(api, session);
        clock.advance(Duration.ofMinutes(2));
        assertThat(mvc.get().uri("/api/v1/approvals").session(again).exchange())
                .as("the second sign-in is a minute old")
                .hasStatusOk();
        clock.advance(lifetime);
        assertThat(mvc.get().uri("/api/v1/approvals").session(again).exchange()).hasStatus(401);
        assertThat(again.isInvalid()).isTrue();
        assertThat(mvc.get()
                        .uri("/console")
                        .accept(org.springframework.http.MediaType.TEXT_HTML)
                        .session(again)
                        .exchange())
                .as("the console asks for a sign-in")
                .hasStatus3xxRedirection()
                .redirectedUrl()
                .endsWith("/login");
        assertThat(mvc.get()
                        .uri("/api/v1/approvals")
                        .session(api.signIn("alice"))
                        .exchange())
                .as("a new sign-in")
                .hasStatusOk();
    }

    /** Posts the sign-in form again within {@code session}, as a person signing in anew without signing out. */
    private org.springframework.mock.web.MockHttpSession signInWithin(
            AgentApi api, org.springframework.mock.web.MockHttpSession session) {
        MvcTestResult signedIn = mvc.post()
                .uri("/login")
                .session(session)
                .param("username", "alice")
                .param("password", "alice-password")
                .with(csrf())
                .exchange();
        assertThat(signedIn.getResponse().getRedirectedUrl()).isEqualTo("/console");
        return (org.springframework.mock.web.MockHttpSession)
                signedIn.getRequest().getSession(false);
    }

    @Test
    void locksAUserNameOutAfterRepeatedFailuresWithoutRevealingThePassword() {
        for (int i = 0; i < 5; i++) {
            assertThat(signIn("carol", "wrong-" + i, "10.0.0." + i)
                            .getResponse()
                            .getRedirectedUrl())
                    .isEqualTo("/login?error");
        }
        MvcTestResult right = signIn("carol", "carol-password", "10.0.0.99");
        for (String padded : new String[] {"carol ", " carol", "carol\t"}) {
            assertThat(signIn(padded, "carol-password", "10.0.0.97")
                            .getResponse()
                            .getRedirectedUrl())
                    .as("'%s'", padded)
                    .isEqualTo("/login?locked");
        }
        MvcTestResult wrong = signIn("carol", "still-wrong", "10.0.0.98");
        assertThat(signedIn(right)).isFalse();
        assertThat(right.getResponse().getRedirectedUrl()).isEqualTo("/login?locked");
        assertThat(wrong.getResponse().getRedirectedUrl())
                .isEqualTo(right.getResponse().getRedirectedUrl());
        assertThat(jdbc.sql("SELECT details FROM airlock.audit_events WHERE tenant = 'acme' AND type = 'login.locked'")
                        .query(String.class)
                        .list())
                .anySatisfy(d -> assertThat(d).contains("carol"));
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE tenant <> 'acme' AND type = 'login.locked'"
                                + " AND details::text LIKE '%carol%'")
                        .query(Long.class)
                        .single())
                .as("carol has a role in acme only: no other tenant's auditors learn her name")
                .isZero();

        clock.advance(Duration.ofMinutes(16));
        assertThat(signedIn(signIn("carol", "carol-password", "10.0.0.99"))).isTrue();
    }

    @Test
    void aBurstOfGuessesSentAtOnceGetsNoMoreThanTheLimitsPasswordChecks() throws Exception {
        int burst = 24;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(burst);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<String>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < burst; i++) {
            String password = "burst-" + i;
            String address = "10.1.0." + i; // one address each: only the name's limit applies
            answers.add(pool.submit(() -> {
                go.await();
                return signIn("carol", password, address).getResponse().getRedirectedUrl();
            }));
        }
        go.countDown();
        java.util.List<String> redirects = new java.util.ArrayList<>();
        for (var answer : answers) {
            redirects.add(answer.get(60, java.util.concurrent.TimeUnit.SECONDS));
        }
        pool.shutdown();

        assertThat(redirects).containsOnly("/login?error", "/login?locked");
        assertThat(redirects)
                .as("password checks (each a wrong guess) of %d attempts sent at once", burst)
                .filteredOn("/login?error"::equals)
                .hasSizeBetween(1, 5);
        assertThat(signIn("carol", "carol-password", "10.1.1.1").getResponse().getRedirectedUrl())
                .isEqualTo("/login?locked");
    }

    @Test
    void aControlCharacterInTheUserNameIsAFailedSignInNotAnError() {
        // (the form login trims a name, as String.trim does: NUL at either end goes with the spaces)
        for (String name : new String[] {"ca\0rol", "\0ca\0rol ", "ca\u001brol"}) {
            assertThat(signIn(name, "carol-password", "10.0.0.50").getResponse().getRedirectedUrl())
                    .as("%s", name.replace("\0", "\\0"))
                    .isEqualTo("/login?error");
        }
        assertThat(signedIn(signIn("carol", "carol-password", "10.0.0.50"))).isTrue();
    }

    @Test
    void noSpellingOfTheSignInPathSkipsTheLockOut() {
        for (int i = 0; i < 5; i++) {
            signIn("carol", "wrong-" + i, "10.0.0." + i);
        }
        for (String path : new String[] {"/l%6Fgin", "/%6cogin", "/login%2F", "/log%69n"}) {
            MvcTestResult encoded = mvc.post()
                    .uri(java.net.URI.create(path))
                    .param("username", "carol")
                    .param("password", "carol-password")
                    .with(csrf())
                    .with(request -> {
                        request.setRemoteAddr("10.0.0.99");
                        return request;
                    })
                    .exchange();
            assertThat(signedIn(encoded)).as(path).isFalse();
            assertThat(encoded.getResponse().getStatus())
                    .as("%s: refused by the firewall", path)
                    .isEqualTo(400);
        }
    }

    @Test
    void locksAnAddressOutThatGuessesManyUserNames() {
        for (int i = 0; i < 20; i++) {
            signIn("nobody-" + i, "guess", "10.9.9.9");
        }
        assertThat(signIn("erin", "erin-password", "10.9.9.9").getResponse().getRedirectedUrl())
                .isEqualTo("/login?locked");
        assertThat(signedIn(signIn("erin", "erin-password", "10.9.9.10"))).isTrue();
        assertThat(jdbc.sql("SELECT details FROM airlock.audit_events WHERE tenant = 'acme' AND type = 'login.locked'")
                        .query(String.class)
                        .list())
                .anySatisfy(d -> assertThat(d).contains("10.9.9.9"))
                .noneSatisfy(d -> assertThat(d).contains("nobody-"));
    }

    @Test
    void anIpv6ClientCountsByItsSlash64AndANameThatIsNobodysFillsNoAuditLog() {
        long before = jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE type = 'login.locked'")
                .query(Long.class)
                .single();
        for (int i = 0; i < 6; i++) {
            assertThat(signIn("nobody-at-all", "guess-" + i, "10.8.8." + i)
                            .getResponse()
                            .getRedirectedUrl())
                    .isIn("/login?error", "/login?locked");
        }
        assertThat(signIn("nobody-at-all", "guess", "10.8.8.99").getResponse().getRedirectedUrl())
                .as("locked out, as any name")
                .isEqualTo("/login?locked");
        assertThat(jdbc.sql("SELECT count(*) FROM airlock.audit_events WHERE type = 'login.locked'")
                        .query(Long.class)
                        .single())
                .as("no tenant's chain takes an event for a name that is nobody's")
                .isEqualTo(before);

        for (int i = 0; i < 20; i++) {
            signIn("nobody-" + i, "guess", "2001:db8:7:7:0:0:0:" + Integer.toHexString(i + 1));
        }
        assertThat(signIn("erin", "erin-password", "2001:db8:7:7:ffff:1:2:3")
                        .getResponse()
                        .getRedirectedUrl())
                .as("another address of the same /64")
                .isEqualTo("/login?locked");
        assertThat(signedIn(signIn("erin", "erin-password", "2001:db8:7:8::1")))
                .as("the next /64")
                .isTrue();
        assertThat(jdbc.sql("SELECT details FROM airlock.audit_events WHERE tenant = 'acme' AND type = 'login.locked'")
                        .query(String.class)
                        .list())
                .anySatisfy(d -> assertThat(d).contains("2001:db8:7:7::/64"));
    }

    @Test
    void anApproverReadsOnlyRunsThatWentThroughApproval() throws Exception {
        AgentApi api = new AgentApi(mvc);
        String automatic = api.run(ACME, "echo", "{\"message\":\"approvers do not read this\"}")
                .text("runId");
        String parked = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"visible\"}}")
                .text("runId");
        MvcTestResult approverOnAutomatic = page("alice", "APPROVER:acme", automatic);
        assertThat(approverOnAutomatic).hasStatus(404);
        assertThat(approverOnAutomatic.getResponse().getContentAsString()).doesNotContain("approvers do not read this");
        assertThat(page("alice", "APPROVER:acme", parked)).hasStatusOk();
        assertThat(page("erin", "AUDITOR:acme", automatic))
                .hasStatusOk()
                .bodyText()
                .contains("approvers do not read this");
        assertThat(page("frank", "TENANT_ADMIN:acme", automatic)).hasStatusOk();
        assertThat(api.asHuman("alice", false, "GET", "/api/v1/audit/runs/" + automatic + "?tenant=acme", null)
                        .status())
                .isEqualTo(403);
    }

    @Test
    void anApproverSeesASpaceAtTheEndOfAnArgument() {
        AgentApi api = new AgentApi(mvc);
        String parked = api.post(ACME, "/api/v1/runs", "{\"tool\":\"release\",\"arguments\":{\"note\":\"prod  \"}}")
                .text("runId");
        assertThat(page("alice", "APPROVER:acme", parked))
                .hasStatusOk()
                .bodyText()
                .as("\"prod  \" never reads as \"prod\"")
                .contains("prod\\x20\\x20</code>");
    }

    private MvcTestResult page(String person, String role, String runId) {
        return mvc.get()
                .uri("/console/runs/" + runId)
                .with(user(person).authorities(new SimpleGrantedAuthority(role)))
                .exchange();
    }

    @Test
    void aNegativeIntegerIsRefusedUnlessTheParameterAllowsALeadingDash() {
        AgentApi api = new AgentApi(mvc);
        AgentApi.Response refused =
                api.post(ACME, "/api/v1/runs", "{\"tool\":\"seq-any\",\"arguments\":{\"count\":-1}}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().toString()).contains("arguments.count: must not be negative");
        assertThat(api.run(ACME, "seq-any", "{\"count\":2}")
                        .body()
                        .path("stdout")
                        .path("text")
                        .asString())
                .isEqualTo("1\n2\n");
        AgentApi.Response allowed = api.run(ACME, "seq-signed", "{\"count\":-1}");
        assertThat(allowed.text("state")).isEqualTo("COMPLETED");
        assertThat(allowed.body().path("stdout").path("text").asString()).isEqualTo("-1\n0\n1\n");
        assertThat(api.get(ACME, "/api/v1/tools")
                        .body()
                        .valueStream()
                        .filter(t -> t.path("name").asString().equals("seq-any"))
                        .findFirst()
                        .orElseThrow()
                        .path("parameters")
                        .path("properties")
                        .path("count")
                        .path("minimum")
                        .asLong())
                .isZero();
    }

    @Autowired
    org.springframework.context.ApplicationContext context;

    @Test
    void theDefaultDatabaseWantsAPasswordThatOnlyTheGatewayCanRead() throws Exception {
        int port = context.getBean(io.zonky.test.db.postgres.embedded.EmbeddedPostgres.class)
                .getPort();
        // What a tool with sandbox.network could try on the host's loopback.
        for (String user : new String[] {"postgres", "airlock"}) {
            java.util.Properties noPassword = new java.util.Properties();
            noPassword.setProperty("user", user);
            noPassword.setProperty("password", "");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> java.sql.DriverManager.getConnection(
                                    "jdbc:postgresql://127.0.0.1:" + port + "/postgres", noPassword)
                            .close())
                    .isInstanceOf(java.sql.SQLException.class);
        }
        java.nio.file.Path file = context.getBean(dev.airlock.kernel.config.AirlockProperties.class)
                .dataDir()
                .resolve("postgres.password");
        assertThat(java.nio.file.Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    }

    @Test
    void theDefaultDatabaseSyncsEveryCommit() {
        assertThat(jdbc.sql("SHOW fsync").query(String.class).single()).isEqualTo("on");
        assertThat(jdbc.sql("SHOW synchronous_commit").query(String.class).single())
                .isEqualTo("on");
    }
}
