package me.loutres.juneau.cli.demo.lan;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes the API server on the test JVM's loopback reachable as 127.0.0.1:port inside a node's namespace: the
 * listening socket is created inside the namespace (setns on one thread), each accepted connection is forwarded
 * to the real port from the root namespace's loopback. No link of the root namespace is involved.
 */
public final class ApiForwarder implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    private ApiForwarder(ServerSocket listener, int target) {
        this.listener = listener;
        this.target = target;
        Thread t = new Thread(this::acceptLoop, "api-forwarder");
        t.setDaemon(true);
        t.start();
    }

    public static ApiForwarder open(String namespace, int port) throws Exception {
        ServerSocket s = Netns.inside(namespace, () -> {
            ServerSocket ss = new ServerSocket();
            ss.setReuseAddress(true);
            ss.bind(new InetSocketAddress("127.0.0.1", port), 50);
            return ss;
        });
        return new ApiForwarder(s, port);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket in = listener.accept();
                Socket out = new Socket("127.0.0.1", target);
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                open.add(in);
                open.add(out);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("api-forwarder: " + e.getMessage());
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "api-forwarder-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // already gone
        }
        open.forEach(ApiForwarder::closeQuietly);
    }
}
