package dev.airlock.egress;

import dev.airlock.egress.guard.EgressNetwork;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The network of these tests: a resolver they control (names map to the addresses the test says,
 * nothing is ever looked up) and a connection layer that fails the test if it is asked to connect
 * outside the loopback range, so that a broken guard fails the test before a packet leaves.
 */
public final class TestNetwork implements EgressNetwork, DnsResolver {

    final List<InetSocketAddress> connections = new CopyOnWriteArrayList<>();
    final List<String> violations = new CopyOnWriteArrayList<>();
    private final Map<String, InetAddress[]> names = new ConcurrentHashMap<>();

    /** Makes {@code name} resolve to the given literal addresses. */
    TestNetwork name(String name, String... literals) {
        InetAddress[] addresses = new InetAddress[literals.length];
        for (int i = 0; i < literals.length; i++) {
            addresses[i] = literal(literals[i]);
        }
        names.put(name, addresses);
        return this;
    }

    /**
     * The address written in {@code literal}; never a lookup (InetAddress.getByName looks nothing up
     * for a literal, and anything else is refused here first).
     */
    public static InetAddress literal(String literal) {
        if (!literal.matches("[0-9a-fA-F:.]+")) {
            throw new IllegalArgumentException("not an address literal: " + literal);
        }
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    @Override
    public void connecting(InetSocketAddress address) {
        connections.add(address);
        if (!address.getAddress().isLoopbackAddress()) {
            violations.add(address.toString());
            throw new AssertionError("a connection outside loopback was attempted: " + address);
        }
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = names.get(host);
        if (addresses != null) {
            return addresses;
        }
        if (host.matches("[0-9.]+|\\[?[0-9a-fA-F:.]+]?")) {
            return new InetAddress[] {literal(host.replace("[", "").replace("]", ""))};
        }
        throw new UnknownHostException(host + " is not a name this test knows");
    }

    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }
}
