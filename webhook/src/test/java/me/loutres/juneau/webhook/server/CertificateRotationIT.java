package me.loutres.juneau.webhook.server;

import static me.loutres.juneau.webhook.Reviews.managedService;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.webhook.RawHttps;
import me.loutres.juneau.webhook.Reviews;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/admission.md: the certificate is replaced while clients keep sending, without one failed request; a broken pair is
 * refused and the last good one keeps serving. Two clients run throughout: one on a kept-alive connection, one that
 * opens a fresh TLS connection per request (so it sees whichever certificate is being served).
 */
class CertificateRotationIT {
    /** docs/install.md (certificates): a change is served within 10 s. */
    private static final Duration RELOAD_BOUND = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final WebhookServer server = new WebhookServer();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong keptAliveOk = new AtomicLong();
    private final AtomicLong freshOk = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private volatile BigInteger lastSerialSeen;

    @AfterEach
    void stop() {
        running.set(false);
        server.stop();
    }

    @Test
    void rotationUnderLoadFailsNoRequestAndABrokenPairIsRefused() throws Exception {
        TestPki pki = new TestPki(dir);
        CertificateAndKey first = pki.install();
        Path state = dir.resolve("state.yaml");
        try (InputStream in = getClass().getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state);
        }
        int port = server.start(WebhookConfig.builder(pki.certFile, pki.keyFile).bindAddress("127.0.0.1").port(0)
                .reloadInterval(Duration.ofMillis(200)).viewSource(new ClusterViewSource.StateFile(state)).build());
        SSLContext trust = pki.clientContext();

        Thread keptAlive = new Thread(() -> keptAliveLoop(trust, port), "kept-alive-client");
        Thread fresh = new Thread(() -> freshConnectionLoop(trust, port), "fresh-connection-client");
        keptAlive.start();
        fresh.start();
        awaitOrFail("both clients running", Duration.ofSeconds(20), () -> keptAliveOk.get() >= 20 && freshOk.get() >= 5);
        assertThat(lastSerialSeen).isEqualTo(first.leaf().getSerialNumber());

        CertificateAndKey second = pki.install();
        awaitOrFail("the second certificate served", RELOAD_BOUND, () -> second.leaf().getSerialNumber().equals(lastSerialSeen));

        // a pair whose key is not the certificate's, then files that are not PEM at all: both refused
        pki.write(pki.issue().certificatePem(), second.keyPem());
        assertThat(server.tlsReloader().check()).isFalse();
        long before = freshOk.get();
        awaitOrFail("fresh connections after the broken pair", Duration.ofSeconds(20), () -> freshOk.get() >= before + 5);
        assertThat(lastSerialSeen).isEqualTo(second.leaf().getSerialNumber());
        pki.write("not a certificate", "not a key");
        assertThat(server.tlsReloader().check()).isFalse();
        assertThat(server.app().readiness().missing()).isEmpty();

        CertificateAndKey third = pki.install();
        awaitOrFail("the third certificate served", RELOAD_BOUND, () -> third.leaf().getSerialNumber().equals(lastSerialSeen));
        long keptBefore = keptAliveOk.get();
        awaitOrFail("the kept-alive client still served", Duration.ofSeconds(20), () -> keptAliveOk.get() >= keptBefore + 20);

        running.set(false);
        keptAlive.join(20_000);
        fresh.join(20_000);
        assertThat(failures).isEmpty();
        assertThat(keptAliveOk.get()).isGreaterThan(40);
        assertThat(freshOk.get()).isGreaterThan(10);
    }

    private void keptAliveLoop(SSLContext trust, int port) {
        HttpClient client = HttpClient.newBuilder().sslContext(trust).version(HttpClient.Version.HTTP_1_1).build();
        while (running.get()) {
            Reviews.Builder review = Reviews.service("CREATE").object(managedService("web", "public", "Local", null));
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/validate/services"))
                        .header("Content-Type", "application/json").timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.ofString(review.json())).build(), HttpResponse.BodyHandlers.ofString());
                check(r.statusCode(), r.body(), review.uid, keptAliveOk);
            } catch (Exception e) {
                failures.add("kept-alive: " + e);
            }
        }
    }

    private void freshConnectionLoop(SSLContext trust, int port) {
        while (running.get()) {
            Reviews.Builder review = Reviews.service("CREATE").object(managedService("web", "public", "Local", null));
            try (RawHttps raw = new RawHttps(trust, port)) {
                BigInteger serial = raw.peer().getSerialNumber();
                RawHttps.Response r = raw.post("/validate/services", review.json());
                check(r.status(), r.body(), review.uid, freshOk);
                lastSerialSeen = serial;
            } catch (Exception e) {
                failures.add("fresh connection: " + e);
            }
        }
    }

    private void check(int status, String body, String uid, AtomicLong ok) {
        if (status == 200 && body.contains("\"uid\":\"" + uid + "\"") && body.contains("\"allowed\":true")) {
            ok.incrementAndGet();
        } else {
            failures.add("status " + status + ": " + body);
        }
    }

    private void awaitOrFail(String what, Duration bound, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(failures).as("failed requests while waiting for " + what).isEmpty();
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + bound + " (served so far: kept-alive "
                        + keptAliveOk.get() + ", fresh " + freshOk.get() + ", failures " + List.copyOf(failures) + ")");
            }
            Thread.sleep(20);
        }
    }
}
