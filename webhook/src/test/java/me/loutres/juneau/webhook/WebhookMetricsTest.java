package me.loutres.juneau.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Requests are counted by path and status, each pair on its own counter, however the counters are found. */
class WebhookMetricsTest {
    @Test
    void eachPathAndStatusIsCountedApart() {
        WebhookMetrics metrics = new WebhookMetrics();
        metrics.request("/validate/services", 200, 1_000);
        metrics.request("/validate/services", 200, 2_000);
        metrics.request("/validate/services", 400, 3_000);
        metrics.request("/mutate/services", 200, 4_000);
        metrics.request("unknown", 404, 5_000);
        metrics.request("unknown", 1000, 6_000); // outside the statuses kept in the array
        metrics.request("unknown", 1000, 7_000);
        assertThat(metrics.scrape())
                .contains("juneau_webhook_requests_total{code=\"200\",path=\"/validate/services\"} 2.0")
                .contains("juneau_webhook_requests_total{code=\"400\",path=\"/validate/services\"} 1.0")
                .contains("juneau_webhook_requests_total{code=\"200\",path=\"/mutate/services\"} 1.0")
                .contains("juneau_webhook_requests_total{code=\"404\",path=\"unknown\"} 1.0")
                .contains("juneau_webhook_requests_total{code=\"1000\",path=\"unknown\"} 2.0")
                .contains("juneau_webhook_request_duration_seconds_count{path=\"/validate/services\"} 3");
    }
}
