package me.loutres.juneau.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The webhook's Prometheus metrics: requests by path and HTTP code, denials by webhook name, and a latency histogram
 * by path. Meters are cached per label set so the hot path does a map lookup by path and an array read by status, not a
 * registry lookup, and allocates nothing.
 */
public final class WebhookMetrics {
    public static final String REQUESTS = "juneau_webhook_requests";
    public static final String DENIALS = "juneau_webhook_denials";
    public static final String DURATION = "juneau_webhook_request_duration";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<String, PathMeters> byPath = new ConcurrentHashMap<>();
    private final Map<String, Counter> denials = new ConcurrentHashMap<>();

    /**
     * One path's meters: its latency timer and its request counters by HTTP status, an array slot each, so the hot path
     * finds them without building a key string per request.
     */
    private final class PathMeters {
        private final String path;
        private final Timer duration;
        private final AtomicReferenceArray<Counter> byStatus = new AtomicReferenceArray<>(600);

        PathMeters(String path) {
            this.path = path;
            this.duration = Timer.builder(DURATION)
                    .description("Time from request received to response written, by path")
                    .tag("path", path)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1).dividedBy(10))
                    .maximumExpectedValue(Duration.ofSeconds(10))
                    .register(registry);
        }

        Counter requests(int httpStatus) {
            if (httpStatus < 0 || httpStatus >= byStatus.length()) {
                return register(httpStatus); // not an HTTP status this servlet sends; the registry keeps one meter per tag set
            }
            Counter counter = byStatus.get(httpStatus);
            if (counter == null) {
                counter = register(httpStatus);
                byStatus.compareAndSet(httpStatus, null, counter); // a racing twin is the same registered meter
            }
            return counter;
        }

        private Counter register(int httpStatus) {
            return Counter.builder(REQUESTS)
                    .description("Admission requests by path and HTTP status")
                    .tag("path", path).tag("code", Integer.toString(httpStatus))
                    .register(registry);
        }
    }

    public void request(String path, int httpStatus, long nanos) {
        PathMeters meters = byPath.computeIfAbsent(path, PathMeters::new);
        meters.requests(httpStatus).increment();
        meters.duration.record(nanos, TimeUnit.NANOSECONDS);
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
