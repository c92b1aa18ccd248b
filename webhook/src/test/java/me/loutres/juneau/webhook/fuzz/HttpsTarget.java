package me.loutres.juneau.webhook.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.webhook.RawHttps;

/**
 * The embedded server over real HTTPS: each worker thread keeps one kept-alive connection and opens a new one when the
 * server closed it (after a 413, or a framing error). An exception here is a client-side failure to get any answer,
 * which the runner reports (a reset, a hang).
 */
public final class HttpsTarget implements FuzzRunner.Target {
    private final SSLContext tls;
    private final int port;
    private final ThreadLocal<RawHttps> connection = new ThreadLocal<>();

    public HttpsTarget(SSLContext tls, int port) {
        this.tls = tls;
        this.port = port;
    }

    @Override
    public FuzzOracle.Answer send(FuzzCase c) throws Exception {
        byte[] body = c.body();
        String head = c.method() + " " + c.path() + " HTTP/1.1\r\nHost: localhost\r\n"
                + (c.contentType() == null ? "" : "Content-Type: " + c.contentType() + "\r\n")
                + "Content-Length: " + body.length + "\r\n\r\n";
        RawHttps.Response response;
        try {
            response = exchange(head.getBytes(StandardCharsets.ISO_8859_1), body);
        } catch (IOException stale) {
            // a kept-alive connection the server closed between two cases: one retry on a fresh one
            drop();
            response = exchange(head.getBytes(StandardCharsets.ISO_8859_1), body);
        }
        if ("close".equalsIgnoreCase(response.headers().get("connection"))) {
            drop();
        }
        return new FuzzOracle.Answer(response.status(), response.headers().get("content-type"),
                response.body().getBytes(StandardCharsets.UTF_8));
    }

    private RawHttps.Response exchange(byte[] head, byte[] body) throws IOException {
        RawHttps c = connection.get();
        if (c == null) {
            c = new RawHttps(tls, port);
            connection.set(c);
        }
        try {
            c.send(head);
            try {
                c.send(body);
            } catch (IOException refusedMidway) {
                // the server answered early (413) and closed: its answer may still be there to read
            }
            return c.read();
        } catch (IOException e) {
            drop();
            throw e;
        }
    }

    private void drop() {
        RawHttps c = connection.get();
        connection.remove();
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }
}
