package me.loutres.juneau.webhook.server;

import static me.loutres.juneau.webhook.Reviews.managedService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.webhook.RawHttps;
import me.loutres.juneau.webhook.Reviews;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stop lets the request being handled finish, then closes the port. */
class GracefulShutdownIT {
    @TempDir
    Path dir;

    @Test
    void anInFlightRequestCompletesDuringStop() throws Exception {
        TestPki pki = new TestPki(dir);
        pki.install();
        WebhookServer server = new WebhookServer();
        int port = server.start(WebhookConfig.builder(pki.certFile, pki.keyFile).bindAddress("127.0.0.1").port(0)
                .shutdownGrace(Duration.ofSeconds(20)).viewSource(new ClusterViewSource.Fixed(SnapshotClusterView.empty())).build());
        SSLContext trust = pki.clientContext();
        Reviews.Builder review = Reviews.service("CREATE").object(managedService("web", "public", "Local", null));
        byte[] body = review.json().getBytes(StandardCharsets.UTF_8);
        Thread stopper = new Thread(server::stop, "stopper");
        try (RawHttps raw = new RawHttps(trust, port)) {
            raw.send(RawHttps.head("POST", "/validate/services", "application/json", body.length));
            raw.send(Arrays.copyOf(body, body.length / 2));
            awaitTrue(() -> server.inFlightRequests() == 1);

            stopper.start();
            awaitTrue(() -> !stopper.isAlive() || stopper.getState() == Thread.State.TIMED_WAITING
                    || stopper.getState() == Thread.State.WAITING);
            raw.send(Arrays.copyOfRange(body, body.length / 2, body.length));
            RawHttps.Response r = raw.read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).contains("\"uid\":\"" + review.uid + "\"");
        }
        stopper.join(30_000);
        assertThat(stopper.isAlive()).isFalse();
        assertThatThrownBy(() -> new RawHttps(trust, port).close()).isInstanceOf(IOException.class);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached within 20 s");
            }
            Thread.sleep(10);
        }
    }
}
