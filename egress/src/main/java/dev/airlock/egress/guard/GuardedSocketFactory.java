package dev.airlock.egress.guard;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * Makes the HTTP client's sockets, each of which checks the address it is asked to connect to
 * against the guard, at connect time, whatever produced it; then tells the {@link EgressNetwork}. A
 * proxy is never used: the guard must see the address the request goes to.
 */
public final class GuardedSocketFactory implements DetachedSocketFactory {

    private final AddressGuard guard;
    private final EgressNetwork network;

    public GuardedSocketFactory(AddressGuard guard, EgressNetwork network) {
        this.guard = guard;
        this.network = network;
    }

    @Override
    public Socket create(@Nullable Proxy proxy) throws IOException {
        if (proxy != null && proxy.type() != Proxy.Type.DIRECT) {
            throw new RefusedAddressException("a proxy was asked for; upstream connections never go through one");
        }
        return new GuardedSocket(guard, network);
    }

    /** A plain socket that connects only to an address the guard allows. */
    static final class GuardedSocket extends Socket {

        private final AddressGuard guard;
        private final EgressNetwork network;

        GuardedSocket(AddressGuard guard, EgressNetwork network) {
            super(
                    java.net.Proxy
                            .NO_PROXY); // never a SOCKS proxy from system properties: the guarded address is the peer
            this.guard = guard;
            this.network = network;
        }

        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            if (!(endpoint instanceof InetSocketAddress target)
                    || target.isUnresolved()
                    || target.getAddress() == null) {
                throw new RefusedAddressException(
                        "the connection's address " + endpoint + " is not a resolved IP address");
            }
            String refusal = guard.refusal(target.getAddress());
            if (refusal != null) {
                throw new RefusedAddressException(
                        "the connection to " + target.getAddress().getHostAddress() + " was refused: "
                                + refusal.replaceFirst("^it ", "") + guard.suffix());
            }
            network.connecting(target);
            super.connect(endpoint, timeout);
        }
    }
}
