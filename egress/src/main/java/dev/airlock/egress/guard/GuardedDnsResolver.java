package dev.airlock.egress.guard;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hc.client5.http.DnsResolver;

/**
 * Resolves a host through another resolver and refuses the whole answer when any address in it is
 * refused by the guard: a name that resolves to one public and one private address could otherwise
 * be steered to the private one. The client connects to the addresses returned here, without a
 * second lookup.
 */
public final class GuardedDnsResolver implements DnsResolver {

    private final DnsResolver resolver;
    private final AddressGuard guard;

    public GuardedDnsResolver(DnsResolver resolver, AddressGuard guard) {
        this.resolver = resolver;
        this.guard = guard;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = resolver.resolve(host);
        if (addresses == null || addresses.length == 0) {
            throw new UnknownHostException(host + " did not resolve to any address");
        }
        for (InetAddress address : addresses) {
            String refusal = guard.refusal(address);
            if (refusal != null) {
                throw new RefusedAddressException(host + " resolves to " + address.getHostAddress() + ", which "
                        + refusal.replaceFirst("^it ", "") + guard.suffix());
            }
        }
        return addresses;
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        List<InetSocketAddress> endpoints = new ArrayList<>();
        for (InetAddress address : resolve(host)) {
            endpoints.add(new InetSocketAddress(address, port));
        }
        return endpoints;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return host;
    }
}
