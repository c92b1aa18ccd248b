package me.loutres.juneau.webhook.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.RawHttps;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.server.WebhookConfig;
import me.loutres.juneau.webhook.server.WebhookServer;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slice of the damaged reviews over real HTTPS to the embedded Jetty server (the bulk runs in-process in
 * {@link AdmissionFuzzTest}): what Jetty itself answers (odd paths, methods, framing) obeys the same rules, no
 * Jetty thread dies and the server still serves afterwards. 400 cases here ({@code -Dfuzz.https.cases} in the
 * benchmark profile).
 */
class AdmissionFuzzIT {
    static final int CASES = Integer.getInteger("fuzz.https.cases", 400);
    /** A different stretch of seeds than the in-process run. */
    static final long FIRST_SEED = Long.getLong("fuzz.https.seed", 7_000_000L);

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static WebhookServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        pki = new TestPki(dir);
        pki.install();
        Path state = dir.resolve("cluster-state.yaml");
        try (InputStream in = AdmissionFuzzIT.class.getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state);
        }
        server = new WebhookServer();
        port = server.start(WebhookConfig.builder(pki.certFile, pki.keyFile).bindAddress("127.0.0.1").port(0)
                .settings(new AdmissionSettings(null, java.util.List.of("10.96.0.0/12")))
                .viewSource(new ClusterViewSource.StateFile(state)).build());
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @Test
    void damagedReviewsOverHttpsAreAnsweredWithoutExceptionTextOr5xxOrHangs() throws Exception {
        int threadsBefore = jettyThreads();
        FuzzRunner.Report report = new FuzzRunner(new HttpsTarget(pki.clientContext(), port), FuzzOracle::problem,
                DamagedReviews::generate, Duration.ofSeconds(20), 2).run(FIRST_SEED, CASES);
        System.out.println("admission fuzz (HTTPS): " + report.summary());
        assertThat(report.failures().stream().map(FuzzRunner.Failure::toString).collect(Collectors.joining("\n\n")))
                .as("%d of %d cases failed; the first ones, minimised", report.failed(), report.cases())
                .isEmpty();
        assertThat(report.outcomes()).doesNotContainKeys("hung", "thrown");
        try (RawHttps after = new RawHttps(pki.clientContext(), port)) {
            after.send(RawHttps.head("GET", "/readyz", null, 0));
            assertThat(after.read().status()).as("still serving after the fuzz").isEqualTo(200);
        }
        assertThat(jettyThreads()).as("Jetty's pool lost no threads").isGreaterThanOrEqualTo(Math.min(threadsBefore, 8));
    }

    private static int jettyThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("webhook-") && t.isAlive()).count();
    }
}
