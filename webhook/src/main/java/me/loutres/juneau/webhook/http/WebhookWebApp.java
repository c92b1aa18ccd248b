package me.loutres.juneau.webhook.http;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.webhook.WebhookApp;

/**
 * The one webapp layout, whoever hosts it (any Servlet 6 container through the WAR's listener, or the embedded Jetty
 * launcher): the admission servlet on the engine's paths and the probe servlet on the operations paths.
 */
public final class WebhookWebApp {
    private WebhookWebApp() {
    }

    public static void register(ServletContext context, WebhookApp app) {
        ServletRegistration.Dynamic admission = context.addServlet("admission", new AdmissionServlet(
                app.reviewer(), app.codec(), app.webhookByPath(), app.metrics(), app.maxBodyBytes()));
        admission.addMapping(app.webhookByPath().keySet().toArray(String[]::new));
        admission.setLoadOnStartup(1);
        ServletRegistration.Dynamic probes = context.addServlet("probes",
                new ProbeServlet(app.readiness(), app.metrics()));
        probes.addMapping(ProbeServlet.HEALTHZ, ProbeServlet.READYZ, ProbeServlet.METRICS);
        probes.setLoadOnStartup(1);
        List<String> served = new ArrayList<>(app.webhookByPath().keySet());
        served.addAll(List.of(ProbeServlet.HEALTHZ, ProbeServlet.READYZ, ProbeServlet.METRICS));
        context.addServlet("not-found", new NotFoundServlet(served)).addMapping("/");
    }
}
