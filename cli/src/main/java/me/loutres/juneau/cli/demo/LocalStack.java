package me.loutres.juneau.cli.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.apiserver.HttpsWebhookCaller;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.runtime.Leadership;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.webhook.server.WebhookConfig;
import me.loutres.juneau.webhook.server.WebhookServer;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * The three parts on one machine, wired as in a cluster: the embedded API server, the webhook over HTTPS with
 * freshly generated certificates (the API server calls it before storing), and the controller talking to the API
 * server over HTTP like any client, under its own service-account identity.
 */
public final class LocalStack implements AutoCloseable {
    /** Local nodes, so Services have somewhere to run (the mock server has no kubelets). */
    public static final List<String> NODE_NAMES = List.of("node-a", "node-b", "node-c");

    private final LocalApiServer api;
    private final WebhookServer webhook = new WebhookServer();
    private final KubernetesClient webhookClient;
    private final KubernetesClient controllerClient;
    private final JuneauController controller;
    private final Path tlsDir;
    private final int webhookPort;
    private final HttpsWebhookCaller webhookCaller;

    private LocalStack(int apiPort, int webhookPort, boolean withNodes, int workers, boolean withController,
            boolean withAgents)
            throws IOException {
        Path dir = null;
        LocalApiServer server = null;
        HttpsWebhookCaller caller = null;
        KubernetesClient wc = null;
        KubernetesClient cc = null;
        try {
            server = LocalApiServer.start(apiPort);
            if (withNodes) {
                for (int i = 0; i < NODE_NAMES.size(); i++) {
                    server.adminClient().nodes().resource(node(NODE_NAMES.get(i), "192.168.10." + (11 + i)))
                            .create();
                }
            }
            dir = Files.createTempDirectory("juneau-local-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Instant now = Instant.now();
            CertificateAndKey ca = CertificateIssuer.createCa("juneau-local-ca", Duration.ofDays(1), now);
            CertificateAndKey serving = CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system",
                    List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1), now);
            Path cert = Files.writeString(dir.resolve("tls.crt"), serving.certificatePem());
            Path key = Files.writeString(dir.resolve("tls.key"), serving.keyPem());
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            // the webhook reads the cluster as its service account, with what manifests/ grant it
            wc = server.client(Identities.WEBHOOK_TOKEN);
            int port = webhook.start(WebhookConfig.builder(cert, key).bindAddress("127.0.0.1").port(webhookPort)
                    .settings(AdmissionSettings.defaults()).viewSource(new ClusterViewSource.Client(wc, server::storageGet)).build());
            caller = new HttpsWebhookCaller(URI.create("https://127.0.0.1:" + port), ca.certificatePem());
            server.useWebhook(caller);
            if (withController) {
                cc = server.client(Identities.CONTROLLER_TOKEN);
                ControllerOptions options = ControllerOptions.defaults("juneau-local-controller").withMetricsPort(0)
                        .withWorkers(workers)
                        .withLease(new Leadership.Timing(Duration.ofSeconds(4), Duration.ofSeconds(3),
                                Duration.ofMillis(500)))
                        // without agents no node holds an agent Lease: elect anyway, so the demo shows who would answer
                        .withArpWithoutAgents(!withAgents);
                this.controller = JuneauController.start(cc, options);
            } else {
                // controllers are started beside it (juneau controller --kubeconfig FILE.controller)
                this.controller = null;
            }
            this.api = server;
            this.webhookClient = wc;
            this.controllerClient = cc;
            this.tlsDir = dir;
            this.webhookPort = port;
            this.webhookCaller = caller;
        } catch (IOException | RuntimeException | java.security.GeneralSecurityException
                | WebhookServer.WebhookStartException e) {
            webhook.stop();
            closeQuietly(caller);
            closeQuietly(cc);
            closeQuietly(wc);
            if (server != null) {
                server.close();
            }
            deleteTree(dir);
            throw new IOException("cannot start the local stack: " + e.getMessage(), e);
        }
    }

    /**
     * Controller workers of the local stack: the API server runs in the same process, so a reconcile waits on its
     * four round trips rather than on a network: 10,000 new Services kept 1.6 of the 2 cores busy with 4 workers
     * (all VIPs in 108 s) and 1.95 with 16 (74 s; BENCHMARKS.md, `juneau up` under load).
     */
    public static final int WORKERS = 16;

    /** A stack where no node agent runs ({@code demo}, {@code up}): nodes without an agent may answer ARP. */
    public static LocalStack start(int apiPort, int webhookPort, boolean withNodes) throws IOException {
        return start(apiPort, webhookPort, withNodes, WORKERS);
    }

    /** As {@link #start(int, int, boolean)} with this many controller workers (Service keys reconciled at once). */
    public static LocalStack start(int apiPort, int webhookPort, boolean withNodes, int workers) throws IOException {
        return new LocalStack(apiPort, webhookPort, withNodes, workers, true, false);
    }

    /** The API server and the webhook only: controllers run beside it, as processes of their own. */
    public static LocalStack withoutController(int apiPort, int webhookPort, boolean withNodes) throws IOException {
        return new LocalStack(apiPort, webhookPort, withNodes, WORKERS, false, false);
    }

    /**
     * A stack whose nodes run real agents (the namespace LAN): only a node whose agent holds its Lease may be
     * elected to answer ARP, as in a cluster.
     */
    public static LocalStack startForAgents(int apiPort, int webhookPort) throws IOException {
        return new LocalStack(apiPort, webhookPort, false, WORKERS, true, true);
    }

    static Node node(String name, String internalIp) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("kubernetes.io/hostname", name).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(internalIp).endAddress()
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    public LocalApiServer api() {
        return api;
    }

    /** The in-process controller; null when started {@linkplain #withoutController without one}. */
    public JuneauController controller() {
        return controller;
    }

    /** What the webhook's rules read (its informer cache); empty until it is loaded. */
    public java.util.Optional<me.loutres.juneau.view.ClusterView> webhookView() {
        return webhook.app() == null ? java.util.Optional.empty() : webhook.app().reviewer().view();
    }

    public int webhookPort() {
        return webhookPort;
    }

    /** True once the controller (if any) leads and every cache (its own and the webhook's) is synced. */
    public boolean ready() {
        return (controller == null || controller.isReady() && controller.isLeader()) && webhook.app() != null
                && webhook.app().readiness().missing().isEmpty();
    }

    /** Waits until {@link #ready()}; false on timeout. */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ready()) {
                return true;
            }
            Thread.sleep(50);
        }
        return ready();
    }

    @Override
    public void close() {
        if (controller != null) {
            controller.close();
        }
        closeQuietly(controllerClient);
        webhook.stop();
        closeQuietly(webhookClient);
        api.close();
        closeQuietly(webhookCaller);
        deleteTree(tlsDir);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // shutting down: nothing useful to do with a close failure
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind holds only a throwaway local certificate
        }
    }
}
