package me.loutres.juneau.controller.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay in front of the test API server for one client: everything passes (TLS end to end) until
 * {@link #freeze}, then nothing moves in either direction — a partition of that client only, while every other
 * client keeps talking to the server. {@link #heal} ends the partition the way a long one ends: the connections
 * that lived through it are reset (their clients gave up on them) and new ones pass again.
 */
public final class FreezingRelay implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean frozen;
    private volatile boolean closed;

    public FreezingRelay(int targetPort) throws IOException {
        this.target = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "relay-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** The URL a client uses to reach the API server through the relay. */
    public String url() {
        return "https://127.0.0.1:" + listener.getLocalPort();
    }

    public void freeze() {
        frozen = true;
    }

    /** Ends the partition: the connections held through it are reset, new ones pass. */
    public void heal() {
        synchronized (gate) {
            for (Socket s : open) {
                closeQuietly(s);
            }
            open.clear();
            frozen = false;
            gate.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                if (frozen) {
                    // a new connection during the partition goes nowhere either
                    open.add(client);
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    synchronized (gate) {
                        while (frozen && !closed) {
                            gate.wait();
                        }
                    }
                    // a connection reset by heal() while this chunk was held drops it: it never arrives
                    if (from.isClosed() || to.isClosed()) {
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended (or was reset by heal)
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "relay-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        heal();
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
