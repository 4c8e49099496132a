package dev.airlock.egress.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.airlock.egress.TestNetwork;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The check at connect time, on the address the socket is asked to connect to, whatever resolved it. */
class GuardedSocketFactoryTests {

    private final List<InetSocketAddress> told = new ArrayList<>();
    private final GuardedSocketFactory sockets = new GuardedSocketFactory(AddressGuard.PUBLIC_ONLY, told::add);

    @Test
    void refusesANonPublicAddressBeforeTheNetworkHearsOfIt() throws Exception {
        for (String literal : List.of("10.0.0.1", "169.254.169.254", "127.0.0.1", "fd00::1", "::ffff:10.0.0.1")) {
            try (Socket socket = sockets.create((Proxy) null)) {
                assertThatThrownBy(() -> socket.connect(new InetSocketAddress(TestNetwork.literal(literal), 80), 100))
                        .as(literal)
                        .isInstanceOf(RefusedAddressException.class)
                        .hasMessageContaining(TestNetwork.literal(literal).getHostAddress());
            }
        }
        assertThat(told).isEmpty();
    }

    @Test
    void refusesAnUnresolvedAddressAndAProxy() throws Exception {
        try (Socket socket = sockets.create((Proxy) null)) {
            assertThatThrownBy(() -> socket.connect(InetSocketAddress.createUnresolved("api.example", 80), 100))
                    .isInstanceOf(RefusedAddressException.class)
                    .hasMessageContaining("not a resolved IP address");
        }
        assertThatThrownBy(() ->
                        sockets.create(new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved("proxy", 3128))))
                .isInstanceOf(RefusedAddressException.class);
        assertThat(told).isEmpty();
    }
}
