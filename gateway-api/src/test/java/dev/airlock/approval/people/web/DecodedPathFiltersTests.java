package dev.airlock.approval.people.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.airlock.approval.people.AccessTokens;
import dev.airlock.approval.people.LoginThrottle;
import dev.airlock.approval.people.TokenPrincipal;
import dev.airlock.approval.people.TokenScope;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The sign-in lock-out and the token scopes decide on the decoded path, as the routes do, even for
 * a request whose path reaches them percent-encoded (the firewall refuses those first; these checks
 * do not rely on it).
 */
class DecodedPathFiltersTests {

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void aLockedOutNameIsSentBackHoweverTheSignInPathIsSpelled() throws Exception {
        LoginThrottle throttle = mock(LoginThrottle.class);
        when(throttle.admit("carol", "10.0.0.1")).thenReturn(false);
        for (String path : new String[] {"/login", "/l%6Fgin", "/%6C%6F%67%69%6E"}) {
            MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
            request.setParameter("username", "carol");
            request.setRemoteAddr("10.0.0.1");
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();
            new LoginThrottleFilter(throttle).doFilter(request, response, chain);
            assertThat(response.getRedirectedUrl()).as(path).isEqualTo("/login?locked");
            assertThat(chain.getRequest())
                    .as("%s: never reaches the password check", path)
                    .isNull();
        }
    }

    @Test
    void aTokensScopeIsDecidedOnTheDecodedPath() throws Exception {
        AccessTokens tokens = mock(AccessTokens.class);
        when(tokens.authenticate("reader-token"))
                .thenReturn(Optional.of(new TokenPrincipal(
                        "password:bob", "bob", Set.of(TokenScope.AUDIT_READ), Set.of("AUDITOR:acme"))));
        for (String path :
                new String[] {"/api/v1/audit/raw-grants/g-1/download", "/api/v1/audit/raw-gr%61nts/g-1/download"}) {
            MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
            request.addHeader("Authorization", "Bearer reader-token");
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();
            new AccessTokenAuthenticationFilter(tokens).doFilter(request, response, chain);
            assertThat(response.getStatus()).as(path).isEqualTo(403);
            assertThat(response.getContentAsString()).as(path).contains("raw:access");
            assertThat(chain.getRequest()).as(path).isNull();
        }
    }
}
