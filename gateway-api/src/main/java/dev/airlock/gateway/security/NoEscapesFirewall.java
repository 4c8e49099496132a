package dev.airlock.gateway.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's strict firewall, and no percent-encoded character anywhere in a request's path.
 * None of Airlock's paths needs one (run ids, tool and tenant names are plain ASCII), and a path
 * that is one thing encoded and another decoded ({@code /l%6Fgin}) is how a check written against
 * one form is skipped by a request routed by the other. Refused as a 400 before any filter sees it;
 * the query string is not part of the path and may be encoded as usual.
 */
final class NoEscapesFirewall implements HttpFirewall {

    private final StrictHttpFirewall strict = new StrictHttpFirewall();

    @Override
    public FirewalledRequest getFirewalledRequest(HttpServletRequest request) throws RequestRejectedException {
        String uri = request.getRequestURI();
        if (uri != null && uri.indexOf('%') >= 0) {
            throw new RequestRejectedException(
                    "The request was rejected because its path holds a percent-encoded character");
        }
        return strict.getFirewalledRequest(request);
    }

    @Override
    public HttpServletResponse getFirewalledResponse(HttpServletResponse response) {
        return strict.getFirewalledResponse(response);
    }
}
