package me.loutres.juneau.webhook.http;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import me.loutres.juneau.webhook.Readiness;
import me.loutres.juneau.webhook.WebhookMetrics;

/**
 * {@code /healthz} (the process answers and nothing in it stopped for good), {@code /readyz} (every readiness check holds; 503 naming what is missing)
 * and {@code /metrics} (Prometheus text). GET and HEAD only.
 */
public final class ProbeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    public static final String HEALTHZ = "/healthz";
    public static final String READYZ = "/readyz";
    public static final String METRICS = "/metrics";

    private final transient Readiness readiness;
    private final transient WebhookMetrics metrics;

    public ProbeServlet(Readiness readiness, WebhookMetrics metrics) {
        this.readiness = readiness;
        this.metrics = metrics;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String method = req.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            resp.setHeader("Allow", "GET, HEAD");
            write(resp, 405, "text/plain; charset=utf-8", "method " + AdmissionCodec.oneLine(method, 20)
                    + " is not allowed on " + req.getServletPath() + "; use GET\n", false);
            return;
        }
        boolean head = "HEAD".equals(method);
        switch (req.getServletPath()) {
            case HEALTHZ -> {
                List<String> stopped = readiness.stopped();
                if (stopped.isEmpty()) {
                    write(resp, 200, "text/plain; charset=utf-8", "ok\n", head);
                } else {
                    write(resp, 503, "text/plain; charset=utf-8", "stuck: the cluster view stopped watching "
                            + String.join(", ", stopped) + "; restart the webhook\n", head);
                }
            }
            case READYZ -> {
                List<String> missing = readiness.missing();
                if (missing.isEmpty()) {
                    write(resp, 200, "text/plain; charset=utf-8", "ok\n", head);
                } else {
                    write(resp, 503, "text/plain; charset=utf-8", "not ready: " + String.join(", ", missing) + "\n", head);
                }
            }
            case METRICS -> write(resp, 200, WebhookMetrics.contentType(), metrics.scrape(), head);
            default -> write(resp, 404, "text/plain; charset=utf-8", "not found\n", head);
        }
    }

    private static void write(HttpServletResponse resp, int status, String contentType, String text, boolean head)
            throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        resp.setStatus(status);
        resp.setHeader("Cache-Control", "no-store");
        resp.setContentType(contentType);
        resp.setContentLength(body.length);
        if (!head) {
            resp.getOutputStream().write(body);
        }
    }
}
