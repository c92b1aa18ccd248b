package me.loutres.juneau.certs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.tls.OpenSsl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The self-signed install Job: material kept in Secrets, so a re-run renews only when due. */
class GenerateSecretMockTest {
    static final String NS = JuneauConstants.SYSTEM_NAMESPACE;

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    Run generate(Instant now, Path out) {
        return Run.certs(k -> server.createClient(), now, "generate", "--service", JuneauConstants.WEBHOOK_SERVICE_NAME,
                "--namespace", NS, "--out", out.toString(), "--secret", JuneauConstants.WEBHOOK_TLS_SECRET,
                "--ca-secret", JuneauConstants.WEBHOOK_CA_SECRET, "--lifetime", "30d");
    }

    String data(Secret s, String key) {
        return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.US_ASCII);
    }

    @Test
    void writesTlsAndCaSecretsAndReusesThemOnTheNextRun(@TempDir Path dir) throws Exception {
        Instant t0 = Instant.parse("2026-11-29T00:00:00Z");
        Run first = generate(t0, dir.resolve("run1"));
        assertThat(first.exit()).as(first.all()).isZero();
        Secret tls = client.secrets().inNamespace(NS).withName(JuneauConstants.WEBHOOK_TLS_SECRET).get();
        Secret ca = client.secrets().inNamespace(NS).withName(JuneauConstants.WEBHOOK_CA_SECRET).get();
        assertThat(tls.getType()).isEqualTo("kubernetes.io/tls");
        assertThat(tls.getData()).containsOnlyKeys("ca.crt", "tls.crt", "tls.key");
        assertThat(ca.getData()).containsOnlyKeys("tls.crt", "tls.key");
        assertThat(data(tls, "ca.crt")).isEqualTo(data(ca, "tls.crt"));
        Path crt = OpenSsl.write(dir, "tls.crt", data(tls, "tls.crt"));
        Path bundle = OpenSsl.write(dir, "ca.crt", data(tls, "ca.crt"));
        OpenSsl.ok("verify", "-attime", Long.toString(t0.getEpochSecond()), "-CAfile", bundle.toString(), crt.toString());
        assertThat(Files.readString(dir.resolve("run1/tls.crt"))).isEqualTo(data(tls, "tls.crt"));
        GenerateCommandTest.assertNoKeyMaterial(first, dir.resolve("run1/tls.key"));

        // a fresh Job pod (empty out dir) finds the Secret and keeps it: nothing due
        String rv = tls.getMetadata().getResourceVersion();
        Run second = generate(t0.plus(Duration.ofDays(5)), dir.resolve("run2"));
        assertThat(second.exit()).as(second.all()).isZero();
        assertThat(second.out()).contains("serving certificate kept", "Secret " + NS + "/" + JuneauConstants.WEBHOOK_TLS_SECRET + " unchanged");
        assertThat(client.secrets().inNamespace(NS).withName(JuneauConstants.WEBHOOK_TLS_SECRET).get()
                .getMetadata().getResourceVersion()).isEqualTo(rv);
        assertThat(Files.readString(dir.resolve("run2/ca.crt"))).isEqualTo(data(tls, "ca.crt"));

        Run third = generate(t0.plus(Duration.ofDays(25)), dir.resolve("run3"));
        assertThat(third.exit()).isZero();
        Secret renewed = client.secrets().inNamespace(NS).withName(JuneauConstants.WEBHOOK_TLS_SECRET).get();
        assertThat(data(renewed, "tls.crt")).isNotEqualTo(data(tls, "tls.crt"));
        assertThat(data(renewed, "ca.crt")).isEqualTo(data(tls, "ca.crt"));
    }
}
