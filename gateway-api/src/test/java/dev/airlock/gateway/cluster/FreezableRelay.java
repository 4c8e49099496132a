package dev.airlock.gateway.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on the loopback address to another loopback port, which the test can freeze as a
 * network partition does: while frozen, bytes in either direction are dropped (nothing is answered
 * and no connection fails, so a statement waits as long as its connection is open) and new
 * connections are accepted but never reach the target. Thawing cuts every connection it holds, so
 * that its client opens new ones.
 */
final class FreezableRelay implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean frozen;

    FreezableRelay(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("relay-accept").start(this::accept);
    }

    /** The port to connect to instead of the target's. */
    int port() {
        return server.getLocalPort();
    }

    /** From now on, nothing passes. */
    void freeze() {
        frozen = true;
    }

    /** Cuts every connection (frozen ones included) and lets new ones through again. */
    void thaw() {
        frozen = false;
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            sockets.add(client);
            if (frozen) {
                // Accepted by the network, never answered: held open until a thaw cuts it.
                Thread.ofPlatform().daemon().start(() -> drain(client));
                continue;
            }
            try {
                Socket target = new Socket();
                target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                sockets.add(target);
                Thread.ofPlatform().daemon().start(() -> pump(client, target));
                Thread.ofPlatform().daemon().start(() -> pump(target, client));
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    /** Copies {@code from} to {@code to} while not frozen; drops what arrives while frozen. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!frozen) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // Either end closed, or a thaw cut it.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void drain(Socket client) {
        byte[] buffer = new byte[4096];
        try (InputStream in = client.getInputStream()) {
            while (in.read(buffer) >= 0) {
                // dropped
            }
        } catch (IOException e) {
            // cut
        } finally {
            closeQuietly(client);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        thaw();
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
