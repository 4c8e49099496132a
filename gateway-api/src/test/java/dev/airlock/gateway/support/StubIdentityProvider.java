package dev.airlock.gateway.support;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * An OpenID Connect provider inside the test JVM, on a loopback port: discovery, an RSA key set,
 * the token endpoint (authorization code, client secret in Basic authentication) and userinfo.
 * It stands for the corporate identity provider that {@code application-test.yaml} registers as
 * {@code corp}: the gateway's real OAuth2 login talks to it over HTTP, and validates the RS256
 * ID tokens it signs against its key set. A test plays the person at its sign-in page with
 * {@link #authorize}.
 */
public final class StubIdentityProvider {

    /** The client the test configuration registers. */
    public static final String CLIENT_ID = "airlock-test";

    private static final String CLIENT_SECRET = "not-a-secret";

    private static StubIdentityProvider shared;

    private final HttpServer server;
    private final String issuer;
    private final RSAKey key;
    private final RSAKey unknownKey;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> accessTokens = new ConcurrentHashMap<>();

    /** What a person's sign-in at the provider allows the client to redeem once. */
    private record Grant(String redirectUri, String idToken, Map<String, Object> userInfo) {}

    private StubIdentityProvider() throws IOException, JOSEException {
        key = new RSAKeyGenerator(2048).keyID("stub-" + UUID.randomUUID()).generate();
        unknownKey = new RSAKeyGenerator(2048).keyID(key.getKeyID()).generate();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + server.getAddress().getPort();
        server.createContext("/.well-known/openid-configuration", this::discovery);
        server.createContext("/jwks", exchange -> respond(exchange, 200, new JWKSet(key.toPublicJWK()).toString()));
        server.createContext("/token", this::token);
        server.createContext("/userinfo", this::userInfo);
        server.start();
    }

    /** The provider of this test JVM, started on first use. */
    public static synchronized StubIdentityProvider shared() {
        if (shared == null) {
            try {
                shared = new StubIdentityProvider();
            } catch (IOException | JOSEException e) {
                throw new IllegalStateException("could not start the stub identity provider", e);
            }
        }
        return shared;
    }

    /** Its issuer identifier, which is also its base URL. */
    public String issuer() {
        return issuer;
    }

    /**
     * Signs a person in at the provider for an authorization request the gateway redirected to,
     * as the provider's sign-in page would, and returns where the provider sends the browser back.
     *
     * @param authorizationRequest the URL of the gateway's redirect to the provider
     * @param claims               the person's claims in the ID token, beside the standard ones
     * @param signedByTheProvider  false to sign the ID token with a key the provider never published
     */
    public URI authorize(URI authorizationRequest, Map<String, Object> claims, boolean signedByTheProvider) {
        Map<String, String> query = query(authorizationRequest.getRawQuery());
        if (!authorizationRequest.toString().startsWith(issuer + "/authorize?")
                || !CLIENT_ID.equals(query.get("client_id"))
                || !"code".equals(query.get("response_type"))
                || !List.of(query.get("scope").split(" ")).contains("openid")) {
            throw new IllegalArgumentException(
                    "not an OpenID Connect authorization request for this provider: " + authorizationRequest);
        }
        // The subject is the person's stable identity at the provider; by default it follows the
        // name, and a test names it ("sub") to sign one person in under another name.
        String subject = String.valueOf(claims.getOrDefault("sub", "sub-" + claims.get("preferred_username")));
        Instant now = Instant.now();
        JWTClaimsSet.Builder token = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject(subject)
                .audience(CLIENT_ID)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)))
                .claim("nonce", query.get("nonce"));
        claims.forEach(token::claim);
        SignedJWT idToken = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), token.build());
        try {
            idToken.sign(new RSASSASigner(signedByTheProvider ? key : unknownKey));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        Map<String, Object> userInfo = new LinkedHashMap<>();
        userInfo.put("sub", subject);
        userInfo.put("preferred_username", claims.get("preferred_username"));
        String code = UUID.randomUUID().toString();
        codes.put(code, new Grant(query.get("redirect_uri"), idToken.serialize(), userInfo));
        return URI.create(query.get("redirect_uri") + "?code=" + code + "&state=" + encode(query.get("state")));
    }

    private void discovery(HttpExchange exchange) throws IOException {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("issuer", issuer);
        metadata.put("authorization_endpoint", issuer + "/authorize");
        metadata.put("token_endpoint", issuer + "/token");
        metadata.put("userinfo_endpoint", issuer + "/userinfo");
        metadata.put("jwks_uri", issuer + "/jwks");
        metadata.put("response_types_supported", List.of("code"));
        metadata.put("subject_types_supported", List.of("public"));
        metadata.put("id_token_signing_alg_values_supported", List.of("RS256"));
        metadata.put("token_endpoint_auth_methods_supported", List.of("client_secret_basic"));
        metadata.put("scopes_supported", List.of("openid", "profile"));
        respond(exchange, 200, json.writeValueAsString(metadata));
    }

    /** The authorization code grant, once per code, for the registered client and its redirect URI. */
    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = query(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String basic = "Basic "
                + Base64.getEncoder()
                        .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        if (!"POST".equals(exchange.getRequestMethod())
                || !basic.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            respond(exchange, 401, "{\"error\":\"invalid_client\"}");
            return;
        }
        Grant grant = form.get("code") == null ? null : codes.remove(form.get("code"));
        if (!"authorization_code".equals(form.get("grant_type"))
                || grant == null
                || !grant.redirectUri().equals(form.get("redirect_uri"))) {
            respond(exchange, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        String accessToken = UUID.randomUUID().toString();
        accessTokens.put(accessToken, grant.userInfo());
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("access_token", accessToken);
        response.put("token_type", "Bearer");
        response.put("expires_in", 300);
        response.put("scope", "openid profile");
        response.put("id_token", grant.idToken());
        respond(exchange, 200, json.writeValueAsString(response));
    }

    private void userInfo(HttpExchange exchange) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        Map<String, Object> claims = authorization == null || !authorization.startsWith("Bearer ")
                ? null
                : accessTokens.get(authorization.substring("Bearer ".length()));
        if (claims == null) {
            respond(exchange, 401, "{\"error\":\"invalid_token\"}");
            return;
        }
        respond(exchange, 200, json.writeValueAsString(claims));
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new LinkedHashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                values.put(
                        URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * Points the test configuration's {@code corp} registration at the shared provider: its
     * issuer (so that the gateway reads the provider's metadata at start and checks the issuer of
     * every ID token) and the endpoints {@code application-test.yaml} names under
     * {@code airlock-test.idp}.
     */
    public static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            String issuer = shared().issuer();
            context.getEnvironment()
                    .getPropertySources()
                    .addFirst(new MapPropertySource(
                            "stub-identity-provider",
                            Map.of(
                                    "airlock-test.idp", issuer,
                                    "spring.security.oauth2.client.provider.corp.issuer-uri", issuer)));
        }
    }
}
