package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import me.loutres.juneau.webhook.Readiness;
import me.loutres.juneau.webhook.WebhookMetrics;
import me.loutres.juneau.webhook.testing.ServletExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProbeServletTest {
    private final AtomicBoolean tls = new AtomicBoolean();
    private final AtomicBoolean synced = new AtomicBoolean();
    private final WebhookMetrics metrics = new WebhookMetrics();
    private final ProbeServlet servlet = new ProbeServlet(
            new Readiness().require("TLS material loaded", tls::get).require("cluster view synced", synced::get), metrics);

    private ServletExchange get(String method, String path) throws Exception {
        ServletExchange exchange = new ServletExchange(method, path, null, InputStream.nullInputStream(), -1);
        servlet.service(exchange.request(), exchange.response());
        return exchange;
    }

    @Test
    void healthzAnswersWhileNotReady() throws Exception {
        ServletExchange exchange = get("GET", "/healthz");
        assertThat(exchange.status()).isEqualTo(200);
        assertThat(exchange.text()).isEqualTo("ok\n");
    }

    @Test
    void healthzFailsNamingWhatStoppedForGoodSoKubernetesRestartsTheWebhook() throws Exception {
        java.util.List<String> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();
        ProbeServlet probes = new ProbeServlet(new Readiness().requireAlive(() -> stopped), metrics);
        ServletExchange live = new ServletExchange("GET", "/healthz", null, InputStream.nullInputStream(), -1);
        probes.service(live.request(), live.response());
        assertThat(live.status()).isEqualTo(200);

        stopped.add("AddressPool");
        stopped.add("Node");
        ServletExchange stuck = new ServletExchange("GET", "/healthz", null, InputStream.nullInputStream(), -1);
        probes.service(stuck.request(), stuck.response());
        assertThat(stuck.status()).isEqualTo(503);
        assertThat(stuck.text()).isEqualTo("stuck: the cluster view stopped watching AddressPool, Node; restart the webhook\n");
    }

    @Test
    void readyzNamesEveryMissingCheckUntilAllHold() throws Exception {
        ServletExchange none = get("GET", "/readyz");
        assertThat(none.status()).isEqualTo(503);
        assertThat(none.text()).isEqualTo("not ready: TLS material loaded, cluster view synced\n");

        tls.set(true);
        assertThat(get("GET", "/readyz").text()).isEqualTo("not ready: cluster view synced\n");

        synced.set(true);
        ServletExchange ready = get("GET", "/readyz");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.text()).isEqualTo("ok\n");
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        metrics.request("/validate/services", 200, 1_500_000);
        metrics.denial("services.validate.juneau.loutres.me");
        ServletExchange exchange = get("GET", "/metrics");
        assertThat(exchange.status()).isEqualTo(200);
        assertThat(exchange.contentType()).startsWith("text/plain; version=0.0.4");
        assertThat(exchange.text())
                .contains("# TYPE juneau_webhook_requests_total counter")
                .contains("juneau_webhook_requests_total{code=\"200\",path=\"/validate/services\"} 1.0")
                .contains("juneau_webhook_denials_total{webhook=\"services.validate.juneau.loutres.me\"} 1.0")
                .contains("# TYPE juneau_webhook_request_duration_seconds histogram");
    }

    @Test
    void headAnswersWithoutABody() throws Exception {
        ServletExchange exchange = get("HEAD", "/healthz");
        assertThat(exchange.status()).isEqualTo(200);
        assertThat(exchange.body().length).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE"})
    void onlyGetAndHead(String method) throws Exception {
        ServletExchange exchange = get(method, "/readyz");
        assertThat(exchange.status()).isEqualTo(405);
        assertThat(exchange.headers()).containsEntry("Allow", "GET, HEAD");
        assertThat(exchange.text().strip()).doesNotContain("\n");
    }
}
