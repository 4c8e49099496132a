package dev.airlock.egress.guard;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The network below the guard: told of every connection after the guard allowed it and just before
 * the socket connects. Production uses {@link #DIRECT}, which lets every allowed connection
 * through; a test replaces it with one that fails the test if a connection outside the loopback
 * range is ever attempted, so that a broken guard fails without a packet leaving the machine.
 */
@FunctionalInterface
public interface EgressNetwork {

    /** Lets every connection the guard allowed through. */
    EgressNetwork DIRECT = address -> {};

    /**
     * Called with the address a socket is about to connect to.
     *
     * @throws IOException to stop the connection
     */
    void connecting(InetSocketAddress address) throws IOException;
}
