package me.loutres.juneau.webhook.fuzz;

import jakarta.servlet.http.HttpServlet;
import java.nio.file.Files;
import java.nio.file.Path;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.WebhookApp;
import me.loutres.juneau.webhook.WebhookAssembly;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import me.loutres.juneau.webhook.testing.ServletExchange;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * The webhook's admission servlet in-process, built as the server builds it (real rules, the offline cluster state of
 * the ITs), called through the servlet tests' {@link ServletExchange}: the real envelope at a rate a fuzzer needs.
 * Anything the servlet throws is what a container would answer with 500.
 */
public final class ServletTarget implements FuzzRunner.Target, AutoCloseable {
    private final WebhookApp app;
    private final HttpServlet servlet;

    public ServletTarget(Path dir) throws Exception {
        Path state = dir.resolve("cluster-state.yaml");
        try (var in = ServletTarget.class.getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        app = WebhookAssembly.create(new AdmissionSettings(null, java.util.List.of("10.96.0.0/12")),
                new ClusterViewSource.StateFile(state), AdmissionServlet.DEFAULT_MAX_BODY_BYTES);
        servlet = new AdmissionServlet(app.reviewer(), app.codec(), app.webhookByPath(), app.metrics(),
                app.maxBodyBytes());
    }

    @Override
    public FuzzOracle.Answer send(FuzzCase c) throws Exception {
        return answer(c.method(), c.path(), c.contentType(), c.body());
    }

    /** One request as given. */
    public FuzzOracle.Answer answer(String method, String path, String contentType, byte[] body) throws Exception {
        ServletExchange exchange = ServletExchange.of(method, path, contentType, body);
        try {
            servlet.service(exchange.request(), exchange.response());
        } catch (Exception escaped) {
            // a container turns an exception out of service() into a 500 with its own error page
            return new FuzzOracle.Answer(500, "text/html", ("500 " + escaped).getBytes());
        }
        return new FuzzOracle.Answer(exchange.status(), exchange.contentType(), exchange.body());
    }

    @Override
    public void close() {
        app.close();
    }
}
