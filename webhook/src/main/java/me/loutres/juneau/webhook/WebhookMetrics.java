package me.loutres.juneau.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The webhook's Prometheus metrics: requests by path and HTTP code, denials by webhook name, and a latency histogram
 * by path. Meters are cached per label set so the hot path does a map lookup, not a registry lookup.
 */
public final class WebhookMetrics {
    public static final String REQUESTS = "juneau_webhook_requests";
    public static final String DENIALS = "juneau_webhook_denials";
    public static final String DURATION = "juneau_webhook_request_duration";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, Counter> requests = new ConcurrentHashMap<>();
    private final Map<String, Counter> denials = new ConcurrentHashMap<>();
    private final Map<String, Timer> durations = new ConcurrentHashMap<>();

    public void request(String path, int httpStatus, long nanos) {
        requests.computeIfAbsent(path + ' ' + httpStatus, k -> Counter.builder(REQUESTS)
                .description("Admission requests by path and HTTP status")
                .tag("path", path).tag("code", Integer.toString(httpStatus))
                .register(registry)).increment();
        durations.computeIfAbsent(path, k -> Timer.builder(DURATION)
                .description("Time from request received to response written, by path")
                .tag("path", path)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1).dividedBy(10))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    public void denial(String webhookName) {
        denials.computeIfAbsent(webhookName, k -> Counter.builder(DENIALS)
                .description("Admission requests denied, by webhook name")
                .tag("webhook", webhookName)
                .register(registry)).increment();
    }

    /** Prometheus text exposition format. */
    public String scrape() {
        return registry.scrape();
    }

    public static String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }
}
