package dev.airlock.gateway.support;

import dev.airlock.egress.guard.EgressNetwork;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.DnsResolver;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The network of the shared test context: names resolve only as this class says (nothing is ever
 * looked up), and a connection outside the loopback range fails the test before it is made, so a
 * broken address guard fails without a packet leaving the machine. Refusals are tested through
 * names that resolve to the addresses an attacker would aim at.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestNetwork {

    /** Names the tests use and the addresses they resolve to. */
    public static final Map<String, String> NAMES = Map.of(
            "api.test", "127.0.0.1",
            "other.test", "127.0.0.1",
            "metadata.test", "169.254.169.254",
            "private.test", "10.0.0.1",
            "ula.test", "fd00::1",
            "mapped.test", "::ffff:10.0.0.1",
            "ec2-v6.test", "fd00:ec2::254");

    /** Every connection attempted outside loopback: must stay empty. */
    public static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();

    @Bean
    @Primary
    DnsResolver testResolver() {
        return new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                String literal = NAMES.getOrDefault(host, host.replace("[", "").replace("]", ""));
                if (!literal.matches("[0-9a-fA-F:.]+")) {
                    throw new UnknownHostException(host + " is not a name the tests know");
                }
                return new InetAddress[] {InetAddress.getByName(literal)};
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
    }

    @Bean
    @Primary
    EgressNetwork loopbackOnly() {
        return address -> {
            if (!address.getAddress().isLoopbackAddress()) {
                VIOLATIONS.add(address.toString());
                throw new AssertionError("a connection outside loopback was attempted: " + address);
            }
        };
    }

    /** For tests that want the address a name stands for. */
    public static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }
}
