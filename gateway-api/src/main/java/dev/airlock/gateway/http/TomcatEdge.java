package dev.airlock.gateway.http;

import dev.airlock.kernel.config.InvalidConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.catalina.util.NetMaskSet;
import org.apache.catalina.valves.RemoteIpValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * What Tomcat itself enforces at the edge. Which reverse proxies may say, in
 * {@code X-Forwarded-For} and {@code X-Forwarded-Proto}, who the client is and whether it came
 * over HTTPS ({@code airlock.http.trusted-proxies}): only those configured, none by default. From
 * any other address the headers are ignored, so that nobody inside the network can pose as another
 * client to the per-address sign-in limit or make a session cookie look as if it had travelled
 * over HTTPS. And the bound of form bodies, which Tomcat reads itself
 * ({@code airlock.http.max-request-body}).
 */
public final class TomcatEdge implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private static final String KEY = "airlock.http.trusted-proxies";
    private static final Pattern LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private final String ranges;
    private int maxFormBytes = -1;

    private TomcatEdge(String ranges) {
        this.ranges = ranges;
    }

    /** Also bounds form bodies, which Tomcat reads itself, by {@code airlock.http.max-request-body}. */
    TomcatEdge boundingForms(long maxBytes) {
        this.maxFormBytes = (int) Math.min(maxBytes, Integer.MAX_VALUE);
        return this;
    }

    /**
     * The configured addresses as ranges Tomcat's {@code RemoteIpValve} reads.
     *
     * @throws InvalidConfigurationException naming the entry that is not an address or a range of addresses
     */
    public static TomcatEdge of(List<String> configured) {
        List<String> ranges = new ArrayList<>();
        for (int i = 0; i < configured.size(); i++) {
            String entry = configured.get(i) == null ? "" : configured.get(i).strip();
            String address = entry.contains("/") ? entry.substring(0, entry.indexOf('/')) : entry;
            if (!LITERAL.matcher(address).matches()) {
                throw new InvalidConfigurationException(
                        KEY + "[" + i + "]", "'" + entry + "' is not an IP address or a range such as 10.0.0.0/24");
            }
            String range = entry.contains("/") ? entry : entry + (address.contains(":") ? "/128" : "/32");
            try {
                NetMaskSet.parse(range);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationException(
                        KEY + "[" + i + "]", "'" + entry + "' is not an IP address or a range such as 10.0.0.0/24");
            }
            ranges.add(range);
        }
        return new TomcatEdge(String.join(",", ranges));
    }

    /** After Spring Boot has added the valve ({@code server.forward-headers-strategy: native}). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        if (maxFormBytes >= 0) {
            factory.addConnectorCustomizers(connector -> connector.setMaxPostSize(maxFormBytes));
        }
        factory.getEngineValves().stream()
                .filter(RemoteIpValve.class::isInstance)
                .map(RemoteIpValve.class::cast)
                .forEach(valve -> {
                    valve.setInternalProxies(ranges);
                    valve.setTrustedProxies("");
                });
    }
}
