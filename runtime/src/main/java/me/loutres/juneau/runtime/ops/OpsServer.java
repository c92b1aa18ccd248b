package me.loutres.juneau.runtime.ops;

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
 * {@code /healthz}, {@code /readyz} (each 200 "ok", or 503 with the reason) and {@code /metrics} (Prometheus text)
 * for the controller and the node agent. Plain HTTP for the kubelet and the scraper: nothing secret is served, and
 * nothing is accepted but GET/HEAD.
 */
public final class OpsServer implements AutoCloseable {
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * Listens on {@code bind:port} (port 0: any free one).
     *
     * @param healthProblem    null when alive, else why not (liveness: the kubelet restarts the process on 503)
     * @param readinessProblem null when ready, else why not
     * @param metrics          the Prometheus scrape
     */
    public OpsServer(String bind, int port, Supplier<String> healthProblem, Supplier<String> readinessProblem,
            Supplier<String> metrics) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bind, port), 16);
        executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "juneau-ops-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/healthz", ex -> probe(ex, healthProblem.get()));
        server.createContext("/readyz", ex -> probe(ex, readinessProblem.get()));
        server.createContext("/metrics", ex -> {
            if (allowed(ex)) {
                send(ex, 200, PROMETHEUS_TEXT, metrics.get());
            }
        });
        server.createContext("/", ex -> send(ex, 404, TEXT, "not found; try /healthz, /readyz or /metrics\n"));
        server.start();
    }

    /** On every interface, for probes that only say yes or no (the answer names what is missing). */
    public static OpsServer onAllInterfaces(int port, BooleanSupplier healthy, BooleanSupplier ready,
            Supplier<String> metrics) throws IOException {
        return new OpsServer("0.0.0.0", port, () -> healthy.getAsBoolean() ? null : "unhealthy",
                () -> ready.getAsBoolean() ? null : "caches not synced", metrics);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange ex, String problem) throws IOException {
        if (allowed(ex)) {
            send(ex, problem == null ? 200 : 503, TEXT, (problem == null ? "ok" : problem) + "\n");
        }
    }

    private static boolean allowed(HttpExchange ex) throws IOException {
        String m = ex.getRequestMethod();
        if ("GET".equals(m) || "HEAD".equals(m)) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        send(ex, 405, TEXT, "method " + m + " not allowed; use GET\n");
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
