package dev.airlock.gateway.support;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls the gateway through MockMvc (security filters included) as an agent with its key or as a
 * configured person signed in through the real form login, and parses the JSON it returns.
 */
public final class AgentApi {

    public static final String ACME = "acme-build-bot-key";
    public static final String ACME_OTHER = "acme-other-bot-key";
    /** An agent of acme that may see every run of its tenant ({@code runs: tenant}). */
    public static final String ACME_OVERSEER = "acme-overseer-key";

    public static final String GLOBEX = "globex-bot-key";
    public static final String EVIDENCE = "evidence-bot-key";
    public static final String TINY = "tiny-bot-key";
    /** Another agent of the tenant of {@link #TINY}, whose reads are counted apart from that one's. */
    public static final String TINY_READER = "tiny-reader-key";

    public static final String MOUNTS = "mounts-bot-key";

    /** Signed-in sessions per gateway (one MockMvcTester per application context) and person. */
    private static final Map<MockMvcTester, Map<String, MockHttpSession>> SESSIONS = new ConcurrentHashMap<>();

    private static final Pattern CSRF_FIELD = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final MockMvcTester mvc;
    private final JsonMapper json = JsonMapper.builder().build();

    public AgentApi(MockMvcTester mvc) {
        this.mvc = mvc;
    }

    /**
     * One response.
     *
     * @param status  the HTTP status
     * @param body    the parsed JSON body (a missing node when empty)
     * @param headers the response headers
     * @param type    the content type
     */
    public record Response(int status, JsonNode body, HttpHeaders headers, String type) {

        public String text(String field) {
            return body.path(field).asString();
        }
    }

    public Response post(String key, String path, String body) {
        return post(key, path, body, null);
    }

    public Response post(String key, String path, String body, String idempotencyKey) {
        var request =
                mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body);
        if (key != null) {
            request = request.header(HttpHeaders.AUTHORIZATION, "Bearer " + key);
        }
        if (idempotencyKey != null) {
            request = request.header("Idempotency-Key", idempotencyKey);
        }
        return parse(request.exchange());
    }

    public Response run(String key, String tool, String argumentsJson) {
        return post(key, "/api/v1/runs?wait=PT30S", "{\"tool\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
    }

    /** Requests a run without waiting and checks that policy parked it for approval; returns its id. */
    public String park(String key, String tool, String argumentsJson) {
        Response response =
                post(key, "/api/v1/runs", "{\"tool\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
        org.assertj.core.api.Assertions.assertThat(response.status()).isEqualTo(201);
        org.assertj.core.api.Assertions.assertThat(response.text("state")).isEqualTo("PENDING_APPROVAL");
        return response.text("runId");
    }

    /** The digest of a parked run's action, as an approver of its tenant is shown it. */
    public String digest(String approver, String runId) {
        return asHuman(approver, false, "GET", "/api/v1/approvals/" + runId, null)
                .body()
                .path("summary")
                .path("digest")
                .asString();
    }

    /**
     * A request as a configured person (application-test.yaml), signed in through the console's
     * form login, so that their roles are the ones the gateway maps from the configuration;
     * with or without the CSRF token.
     */
    public Response asHuman(String user, boolean csrf, String method, String path, String body) {
        return parse(humanRequest(user, csrf, method, path, body).exchange());
    }

    /**
     * A GET as a configured, signed-in person of {@code uri} as it is, already percent-encoded (the
     * path-taking methods encode a '%' themselves, so they cannot send {@code %00}).
     */
    public Response getAsHuman(String user, java.net.URI uri) {
        return parse(mvc.get().uri(uri).session(session(user)).exchange());
    }

    /** A request as a configured, signed-in person, with the CSRF token. */
    public Response asHuman(String user, String method, String path, String body) {
        return asHuman(user, true, method, path, body);
    }

    /**
     * The id of a raw-access grant for {@code runId} of {@code tenant} that {@code requester} asked
     * for with {@code reason} and {@code granter} granted (the decision answered 200).
     */
    public String grantedRawAccess(String requester, String granter, String runId, String tenant, String reason) {
        String grant = asHuman(
                        requester,
                        "POST",
                        "/api/v1/audit/runs/" + runId + "/raw-grants?tenant=" + tenant,
                        "{\"reason\":\"" + reason + "\"}")
                .text("id");
        org.assertj.core.api.Assertions.assertThat(asHuman(
                                granter,
                                "POST",
                                "/api/v1/audit/raw-grants/" + grant + "/decision",
                                "{\"decision\":\"GRANT\"}")
                        .status())
                .isEqualTo(200);
        return grant;
    }

    /** A GET as a configured, signed-in person, its body kept as bytes (downloads, exports). */
    public MockHttpServletResponse rawAsHuman(String user, String path) {
        return humanRequest(user, false, "GET", path, null).exchange().getResponse();
    }

    /** A request as a configured, signed-in person (with the CSRF token unless a GET), its body kept as bytes. */
    public MockHttpServletResponse rawAsHuman(String user, String method, String path) {
        return humanRequest(user, !"GET".equals(method), method, path, null)
                .exchange()
                .getResponse();
    }

    /**
     * The console session of a configured person, who signs in once per gateway: the sign-in page
     * is fetched for its CSRF token and the form posted with the password {@code <user>-password}.
     *
     * @throws AssertionError when the gateway refuses the sign-in
     */
    public MockHttpSession session(String user) {
        return SESSIONS.computeIfAbsent(mvc, m -> new ConcurrentHashMap<>()).computeIfAbsent(user, this::signIn);
    }

    /** Signs a configured person in afresh through the form login and returns the new session. */
    public MockHttpSession signIn(String user) {
        return signIn(user, user + "-password");
    }

    /**
     * Posts the sign-in form with the given password.
     *
     * @throws AssertionError when the gateway refuses the sign-in
     */
    public MockHttpSession signIn(String user, String password) {
        MvcTestResult page = mvc.get().uri("/login").exchange();
        Matcher token = CSRF_FIELD.matcher(text(page.getResponse()));
        if (page.getResponse().getStatus() != 200 || !token.find()) {
            throw new AssertionError("the sign-in page has no CSRF token (status "
                    + page.getResponse().getStatus() + ")");
        }
        MvcTestResult signedIn = mvc.post()
                .uri("/login")
                .session((MockHttpSession) page.getRequest().getSession(false))
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .param("username", user)
                .param("password", password)
                .param("_csrf", token.group(1))
                .exchange();
        String location = signedIn.getResponse().getRedirectedUrl();
        if (signedIn.getResponse().getStatus() != 302 || location == null || !location.endsWith("/console")) {
            throw new AssertionError("signing in as " + user + " failed: "
                    + signedIn.getResponse().getStatus() + " to " + location);
        }
        return (MockHttpSession) signedIn.getRequest().getSession(false);
    }

    private MockMvcTester.MockMvcRequestBuilder humanRequest(
            String user, boolean csrf, String method, String path, String body) {
        var request = switch (method) {
            case "POST" ->
                mvc.post().uri(path).contentType(MediaType.APPLICATION_JSON).content(body == null ? "" : body);
            case "PUT" ->
                mvc.put().uri(path).contentType(MediaType.APPLICATION_JSON).content(body == null ? "" : body);
            case "DELETE" -> mvc.delete().uri(path);
            default -> mvc.get().uri(path);
        };
        request = request.session(session(user));
        if (csrf) {
            request = request.with(SecurityMockMvcRequestPostProcessors.csrf().asHeader());
        }
        return request;
    }

    private static String text(MockHttpServletResponse response) {
        return new String(response.getContentAsByteArray(), StandardCharsets.UTF_8);
    }

    /**
     * Asserts that a run's envelope as a request got it (for a run that has ended: built by the
     * replica that wrote its result, from what it wrote) is exactly the envelope read back; returns it.
     */
    public JsonNode readBackTheSame(String key, JsonNode run) {
        if (!java.util.List.of("REQUESTED", "PENDING_APPROVAL", "APPROVED", "RUNNING")
                .contains(run.path("state").asString())) {
            org.assertj.core.api.Assertions.assertThat(
                            get(key, "/api/v1/runs/" + run.path("runId").asString())
                                    .body())
                    .as("the run read back")
                    .isEqualTo(run);
        }
        return run;
    }

    public Response get(String key, String path) {
        var request = mvc.get().uri(path);
        if (key != null) {
            request = request.header(HttpHeaders.AUTHORIZATION, "Bearer " + key);
        }
        return parse(request.exchange());
    }

    /** Any exchange's answer as a {@link Response} (status, JSON body, headers). */
    public Response parse(MvcTestResult result) {
        MockHttpServletResponse response = result.getResponse();
        String content = new String(response.getContentAsByteArray(), StandardCharsets.UTF_8);
        JsonNode body = content.isEmpty() ? json.missingNode() : json.readTree(content);
        HttpHeaders headers = new HttpHeaders();
        response.getHeaderNames().forEach(n -> headers.addAll(n, response.getHeaders(n)));
        return new Response(response.getStatus(), body, headers, response.getContentType());
    }
}
