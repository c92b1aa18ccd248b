package me.loutres.juneau.certs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.testing.Kubeconfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InjectCommandMockTest {
    static final String V = JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION;
    static final String M = JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION;

    KubernetesMockServer server;
    KubernetesClient client;
    ClientFactory clients;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        // the command closes its client; hand it one of its own each time
        clients = k -> server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    void installConfigurations() {
        client.admissionRegistration().v1().validatingWebhookConfigurations().resource(new ValidatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(V).endMetadata()
                .addNewWebhook().withName("services.validate.juneau.loutres.me").withNewClientConfig().withNewService()
                .withName("juneau-webhook").withNamespace("juneau-system").withPath("/validate/services").endService()
                .endClientConfig().withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook()
                .addNewWebhook().withName("addresspools.validate.juneau.loutres.me").withNewClientConfig().withNewService()
                .withName("juneau-webhook").withNamespace("juneau-system").withPath("/validate/addresspools").endService()
                .withCaBundle("b2xk").endClientConfig().withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook()
                .build()).create();
        client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(new MutatingWebhookConfigurationBuilder()
                .withNewMetadata().withName(M).endMetadata()
                .addNewWebhook().withName("services.mutate.juneau.loutres.me").withNewClientConfig().withNewService()
                .withName("juneau-webhook").withNamespace("juneau-system").withPath("/mutate/services").endService()
                .endClientConfig().withSideEffects("None").withAdmissionReviewVersions("v1").endWebhook()
                .build()).create();
    }

    Path caFile(Path dir) {
        Run r = Run.certs(k -> {
            throw new AssertionError();
        }, Instant.now(), "generate", "--service", "juneau-webhook", "--namespace", "juneau-system", "--out", dir.toString());
        assertThat(r.exit()).as(r.all()).isZero();
        return dir.resolve("ca.crt");
    }

    @Test
    void setsTheBundleOnEveryWebhookOfBothConfigurations(@TempDir Path dir) throws Exception {
        installConfigurations();
        Path ca = caFile(dir);
        Run r = Run.certs(clients, Instant.now(), "inject", "--ca-file", ca.toString());
        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(r.out()).contains("ValidatingWebhookConfiguration " + V + ": caBundle set on 2 webhook(s)",
                "MutatingWebhookConfiguration " + M + ": caBundle set on 1 webhook(s)");

        String expected = Base64.getEncoder().encodeToString(Files.readString(ca).getBytes(StandardCharsets.US_ASCII));
        ValidatingWebhookConfiguration v = client.admissionRegistration().v1().validatingWebhookConfigurations().withName(V).get();
        MutatingWebhookConfiguration m = client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(M).get();
        assertThat(v.getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isEqualTo(expected));
        assertThat(m.getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isEqualTo(expected));
        // the rest of the configuration is untouched
        assertThat(v.getWebhooks().get(1).getClientConfig().getService().getPath()).isEqualTo("/validate/addresspools");
        assertThat(new String(Base64.getDecoder().decode(expected), StandardCharsets.US_ASCII)).startsWith("-----BEGIN CERTIFICATE-----");

        String rv = v.getMetadata().getResourceVersion();
        Run again = Run.certs(clients, Instant.now(), "inject", "--ca-file", ca.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("already up to date on 2 webhook(s)", "already up to date on 1 webhook(s)");
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(V).get()
                .getMetadata().getResourceVersion()).isEqualTo(rv);
    }

    @Test
    void missingConfigurationFailsWithOneLineAndChangesNothing(@TempDir Path dir) {
        installConfigurations();
        Path ca = caFile(dir);
        Run r = Run.certs(clients, Instant.now(), "inject", "--ca-file", ca.toString(),
                "--webhook-configuration", V, "--webhook-configuration", "typo");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).hasLineCount(1)
                .contains("no ValidatingWebhookConfiguration or MutatingWebhookConfiguration named \"typo\" exists")
                .contains("nothing was changed");
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(V).get()
                .getWebhooks().get(0).getClientConfig().getCaBundle()).isNull();
    }

    @Test
    void nothingInstalledFails(@TempDir Path dir) {
        Run r = Run.certs(clients, Instant.now(), "inject", "--ca-file", caFile(dir).toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("\"" + V + "\", \"" + M + "\"").contains("install the manifests first").hasLineCount(1);
    }

    @Test
    void serverCertificateInsteadOfCaIsRefused(@TempDir Path dir) {
        installConfigurations();
        caFile(dir);
        Run r = Run.certs(clients, Instant.now(), "inject", "--ca-file", dir.resolve("tls.crt").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("is not a CA certificate; pass the CA bundle (ca.crt), not tls.crt").hasLineCount(1);
    }

    @Test
    void unreadableCaFileIsRefused(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("ca.crt"), "not a certificate");
        Run r = Run.certs(clients, Instant.now(), "inject", "--ca-file", bad.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--ca-file " + bad + ": no PEM certificate found").hasLineCount(1);
        Run missing = Run.certs(clients, Instant.now(), "inject", "--ca-file", dir.resolve("nope").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("file not found");
    }

    @Test
    void kubeconfigFileIsUsed(@TempDir Path dir) throws Exception {
        installConfigurations();
        Path ca = caFile(dir.resolve("pki"));
        String url = client.getConfiguration().getMasterUrl();
        Path kubeconfig = Kubeconfigs.write(dir.resolve("kubeconfig"), url);
        Run r = Run.certs(ClientFactory.DEFAULT, Instant.now(), "inject", "--ca-file", ca.toString(),
                "--kubeconfig", kubeconfig.toString(), "--webhook-configuration", M);
        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(r.out()).contains("MutatingWebhookConfiguration " + M + ": caBundle set on 1 webhook(s)");
        Run missing = Run.certs(ClientFactory.DEFAULT, Instant.now(), "inject", "--ca-file", ca.toString(),
                "--kubeconfig", dir.resolve("none").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("--kubeconfig " + dir.resolve("none") + ": file not found");
    }

    @Test
    void unreachableApiServerIsOneLine(@TempDir Path dir) {
        Path ca = caFile(dir);
        ClientFactory nowhere = k -> new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl("http://127.0.0.1:1")
                        .withRequestRetryBackoffLimit(0).build()).build();
        Run r = Run.certs(nowhere, Instant.now(), "inject", "--ca-file", ca.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).hasLineCount(1).contains("the API server could not be reached")
                .contains("check --kubeconfig");
    }

    @Test
    void forbiddenNamesTheRbac(@TempDir Path dir) {
        Path ca = caFile(dir);
        KubernetesMockServer expectations = new KubernetesMockServer(false);
        expectations.init();
        try {
            expectations.expect().get().withPath("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/" + V)
                    .andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403).withReason("Forbidden")
                            .withMessage("forbidden").build()).always();
            Run r = Run.certs(k -> expectations.createClient(), Instant.now(), "inject", "--ca-file", ca.toString(),
                    "--webhook-configuration", V);
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).hasLineCount(1).contains("403 Forbidden").contains("RBAC");
        } finally {
            expectations.destroy();
        }
    }

    @Test
    void aConcurrentChangeIsRetriedNotOverwritten(@TempDir Path dir) {
        java.util.concurrent.atomic.AtomicInteger puts = new java.util.concurrent.atomic.AtomicInteger();
        KubernetesCrudDispatcher racing = new KubernetesCrudDispatcher() {
            @Override
            public io.fabric8.mockwebserver.http.MockResponse handleUpdate(io.fabric8.mockwebserver.http.RecordedRequest request) {
                if (request.getPath().contains("/validatingwebhookconfigurations/") && puts.getAndIncrement() == 0) {
                    // someone else wrote the object between our read and our write: the API server answers 409
                    return new io.fabric8.mockwebserver.http.MockResponse().setResponseCode(409)
                            .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":409,"
                                    + "\"reason\":\"Conflict\",\"message\":\"the object has been modified\"}");
                }
                return super.handleUpdate(request);
            }
        };
        KubernetesMockServer racingServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), racing, false);
        racingServer.init();
        try (KubernetesClient c = racingServer.createClient()) {
            KubernetesClient previous = client;
            client = c;
            installConfigurations();
            client = previous;
            Path ca = caFile(dir);
            Run r = Run.certs(k -> racingServer.createClient(), Instant.now(), "inject", "--ca-file", ca.toString(),
                    "--webhook-configuration", V);
            assertThat(r.exit()).as(r.all()).isZero();
            assertThat(puts.get()).isEqualTo(2);
            assertThat(c.admissionRegistration().v1().validatingWebhookConfigurations().withName(V).get().getWebhooks())
                    .allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).isNotEmpty());
        } finally {
            racingServer.destroy();
        }
    }
}
