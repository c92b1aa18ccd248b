package me.loutres.juneau.webhook;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.webhook.http.AdmissionCodec;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the webapp serves from, built once: the reviewer (rules + cluster view), the endpoints, metrics,
 * readiness checks, and what must be closed when the webapp stops (informers, client).
 */
public final class WebhookApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookApp.class);

    private final Reviewer reviewer;
    private final Map<String, String> webhookByPath;
    private final WebhookMetrics metrics = new WebhookMetrics();
    private final Readiness readiness = new Readiness();
    private final AdmissionCodec codec = new AdmissionCodec();
    private final int maxBodyBytes;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private boolean closed;

    public WebhookApp(Reviewer reviewer, List<Endpoint> endpoints, int maxBodyBytes) {
        this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
        Map<String, String> byPath = new LinkedHashMap<>();
        for (Endpoint e : endpoints) {
            byPath.put(e.path(), e.webhookName());
        }
        this.webhookByPath = byPath;
        this.maxBodyBytes = maxBodyBytes;
    }

    public WebhookApp(Reviewer reviewer, List<Endpoint> endpoints) {
        this(reviewer, endpoints, AdmissionServlet.DEFAULT_MAX_BODY_BYTES);
    }

    public Reviewer reviewer() {
        return reviewer;
    }

    /** Path -> webhook name, in the engine's order. */
    public Map<String, String> webhookByPath() {
        return webhookByPath;
    }

    public WebhookMetrics metrics() {
        return metrics;
    }

    public Readiness readiness() {
        return readiness;
    }

    public AdmissionCodec codec() {
        return codec;
    }

    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Closed, last registered first, when the app closes; at once when it is already closed (a view that
     * finished opening after a failed start).
     */
    public synchronized WebhookApp closeOnStop(AutoCloseable closeable) {
        if (closed) {
            closeQuietly(closeable);
        } else {
            closeables.add(closeable);
        }
        return this;
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeQuietly(closeables.get(i));
        }
        closeables.clear();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.warn("closing {} failed: {}", closeable.getClass().getSimpleName(), e.toString());
        }
    }
}
