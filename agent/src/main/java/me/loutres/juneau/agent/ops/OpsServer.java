package me.loutres.juneau.agent.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code /healthz}, {@code /readyz} (each answering 503 with the reason when not ok) and {@code /metrics}. Plain
 * HTTP on the host network for the kubelet and the scraper: nothing secret is served, only GET/HEAD is accepted.
 */
public final class OpsServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * @param health    null when healthy, else why not
     * @param readiness null when ready, else why not
     */
    public OpsServer(String bind, int port, Supplier<String> health, Supplier<String> readiness,
            Supplier<String> metrics) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bind, port), 16);
        executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "juneau-agent-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/healthz", ex -> probe(ex, health.get()));
        server.createContext("/readyz", ex -> probe(ex, readiness.get()));
        server.createContext("/metrics", ex -> {
            if (allowed(ex)) {
                send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
            }
        });
        server.createContext("/", ex -> send(ex, 404, "text/plain; charset=utf-8",
                "not found; try /healthz, /readyz or /metrics\n"));
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange ex, String problem) throws IOException {
        if (allowed(ex)) {
            send(ex, problem == null ? 200 : 503, "text/plain; charset=utf-8", (problem == null ? "ok" : problem) + "\n");
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
