package me.loutres.juneau.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code /healthz} (process up), {@code /readyz} (caches synced; a standby is ready too, so a rolling update
 * never waits for the Lease) and {@code /metrics} (Prometheus text). Plain HTTP on the pod network for the
 * kubelet and the scraper: nothing secret is served, and nothing is accepted but GET/HEAD.
 */
public final class OpsServer implements AutoCloseable {
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    public OpsServer(int port, BooleanSupplier healthy, BooleanSupplier ready, Supplier<String> metrics)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 16);
        executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "juneau-ops-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/healthz", ex -> probe(ex, healthy.getAsBoolean(), "ok", "unhealthy"));
        server.createContext("/readyz", ex -> probe(ex, ready.getAsBoolean(), "ok", "caches not synced"));
        server.createContext("/metrics", ex -> {
            if (allowed(ex)) {
                send(ex, 200, PROMETHEUS_TEXT, metrics.get());
            }
        });
        server.createContext("/", ex -> send(ex, 404, "text/plain; charset=utf-8",
                "not found; try /healthz, /readyz or /metrics\n"));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange ex, boolean ok, String yes, String no) throws IOException {
        if (allowed(ex)) {
            send(ex, ok ? 200 : 503, "text/plain; charset=utf-8", (ok ? yes : no) + "\n");
        }
    }

    private static boolean allowed(HttpExchange ex) throws IOException {
        String m = ex.getRequestMethod();
        if ("GET".equals(m) || "HEAD".equals(m)) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        send(ex, 405, "text/plain; charset=utf-8", "method " + m + " not allowed; use GET\n");
        return false;
    }

    private static void send(HttpExchange ex, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(code, head ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            if (!head) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
