package me.loutres.juneau.controller.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.apiserver.HttpsWebhookCaller;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.webhook.server.WebhookConfig;
import me.loutres.juneau.webhook.server.WebhookServer;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * A cluster for the scenario tests, wired as a real one is: the project's local API server (module
 * {@code apiserver}: kube-apiserver's semantics, HTTPS, Juneau's CRDs from the generated manifests) with the real
 * admission webhook in front of it, called over HTTPS before anything is stored — so the webhook judges the
 * controller's own writes and the test's. The controller talks to it under its service-account identity; the test
 * uses the admin identity. {@link TestDispatcher} sees every request and can refuse chosen ones.
 */
public final class MockCluster implements AutoCloseable {
    public static final String CONTROLLER_AGENT = "juneau-controller-under-test";
    private static final Duration WEBHOOK_READY = Duration.ofSeconds(30);

    private final TestDispatcher dispatcher;
    private final LocalApiServer server;
    private final WebhookServer webhook = new WebhookServer();
    private final KubernetesClient webhookClient;
    private final KubernetesClient client;
    private final Path tlsDir;
    private HttpsWebhookCaller webhookCaller;
    private final List<KubernetesClient> controllerClients = new ArrayList<>();
    private final List<JuneauController> controllers = new ArrayList<>();
    private final java.util.Set<String> knownNodes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Set<String> knownNamespaces = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger nodeAddresses = new java.util.concurrent.atomic.AtomicInteger();

    public MockCluster() {
        this(new TestDispatcher());
    }

    public MockCluster(TestDispatcher dispatcher) {
        this(dispatcher, 0);
    }

    /** A fresh cluster (empty store) listening on a chosen loopback port, e.g. to bring an API server back. */
    public static MockCluster onPort(int port) {
        return new MockCluster(new TestDispatcher(), port);
    }

    private MockCluster(TestDispatcher dispatcher, int port) {
        this.dispatcher = dispatcher;
        server = LocalApiServer.start(port);
        server.onRequest(dispatcher);
        try {
            tlsDir = Files.createTempDirectory("juneau-test-webhook-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            WebhookTls tls = WebhookTls.get();
            Path cert = Files.writeString(tlsDir.resolve("tls.crt"), tls.serving().certificatePem());
            Path key = Files.writeString(tlsDir.resolve("tls.key"), tls.serving().keyPem());
            webhookClient = server.client(Identities.WEBHOOK_TOKEN);
            int webhookPort = webhook.start(WebhookConfig.builder(cert, key).bindAddress("127.0.0.1").port(0)
                    .settings(AdmissionSettings.defaults()).shutdownGrace(Duration.ofMillis(200))
                    .viewSource(new ClusterViewSource.Client(webhookClient, server::storageGet)).build());
            long deadline = System.nanoTime() + WEBHOOK_READY.toNanos();
            while (!webhook.app().readiness().missing().isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the webhook is not ready: " + webhook.app().readiness()
                            .missing());
                }
                Thread.sleep(20);
            }
            webhookCaller = new HttpsWebhookCaller(URI.create("https://127.0.0.1:" + webhookPort),
                    tls.ca().certificatePem());
            server.useWebhook(webhookCaller);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot start the test cluster: " + e, e);
        }
        client = server.client(Identities.ADMIN_TOKEN);
    }

    /** One CA and serving certificate for the tests' webhooks, made once per JVM (key generation is slow). */
    private record WebhookTls(CertificateAndKey ca, CertificateAndKey serving) {
        private static WebhookTls made;

        static synchronized WebhookTls get() {
            if (made == null) {
                Instant now = Instant.now();
                CertificateAndKey ca = CertificateIssuer.createCa("juneau-test-ca", Duration.ofDays(1), now);
                made = new WebhookTls(ca, CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system",
                        List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1), now));
            }
            return made;
        }
    }

    /**
     * Runs the writes with the admission webhooks switched off, then switches them on again: the state a cluster
     * holds when objects were stored before Juneau's webhook configuration was installed (or while an admin had
     * removed it), which the webhook would refuse today but the controller must still handle.
     */
    public void beforeTheWebhook(Runnable writes) {
        server.useWebhook(null);
        try {
            writes.run();
        } finally {
            server.useWebhook(webhookCaller);
        }
    }

    /** The API server, e.g. for its URL or a client under another identity. */
    public LocalApiServer server() {
        return server;
    }

    public KubernetesClient client() {
        return client;
    }

    public TestDispatcher dispatcher() {
        return dispatcher;
    }

    /** A client whose requests the dispatcher can tell apart (user agent) from the test's own. */
    public KubernetesClient newControllerClient() {
        KubernetesClient c = newUntrackedControllerClient();
        controllerClients.add(c);
        return c;
    }

    /**
     * The node agent's client of one node (the caller closes it): only agents may write BGPSessions, and only their
     * own node's (docs/admission.md).
     */
    public KubernetesClient newAgentClient(String node) {
        return server.client(server.agentToken(node));
    }

    /** A controller client the cluster does not keep (the caller closes it), so it can be garbage collected. */
    public KubernetesClient newUntrackedControllerClient() {
        return server.client(Identities.CONTROLLER_TOKEN, b -> b.withUserAgent(CONTROLLER_AGENT)
                .withRequestRetryBackoffLimit(0));
    }

    /**
     * Short Lease timing for tests: takeovers in seconds. Not shorter: a term expires by itself when no renew
     * succeeds within the renew deadline (docs/operations.md), and a test machine loaded by parallel builds can take
     * a second over one renew; 5 tries within 2.5 s keep a leader leading there. No agent runs in these tests, so
     * nodes without an agent Lease may answer ARP.
     */
    public static ControllerOptions fastOptions(String identity) {
        return ControllerOptions.defaults(identity).withNamespace("juneau-system").withMetricsPort(-1).withWorkers(2)
                .withLease(Duration.ofMillis(4000), Duration.ofMillis(2500), Duration.ofMillis(500))
                .withArpWithoutAgents(true);
    }

    public JuneauController startController(String identity) {
        return startController(fastOptions(identity));
    }

    public JuneauController startController(ControllerOptions options) {
        JuneauController c = JuneauController.start(newControllerClient(), options);
        controllers.add(c);
        return c;
    }

    /**
     * A controller whose client reaches the API server another way (through a {@link FreezingRelay}, say): a
     * controller client with this user agent, its requests told apart in {@link TestDispatcher#requests}.
     */
    public JuneauController startControllerVia(ControllerOptions options, String masterUrl, String userAgent) {
        KubernetesClient client = server.client(Identities.CONTROLLER_TOKEN, b -> b.withMasterUrl(masterUrl)
                .withUserAgent(userAgent).withRequestRetryBackoffLimit(0));
        controllerClients.add(client);
        JuneauController c = JuneauController.start(client, options);
        controllers.add(c);
        return c;
    }

    /** A controller whose HTTP client runs this interceptor (e.g. {@link HeldReplies}). */
    public JuneauController startController(ControllerOptions options, Interceptor interceptor) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(server.url())
                .withOauthToken(Identities.CONTROLLER_TOKEN).withCaCertData(server.caData()).withNamespace("default")
                .withOnlyHttpWatches(true).withUserAgent(CONTROLLER_AGENT).withRequestRetryBackoffLimit(0).build();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("test", interceptor)).build();
        controllerClients.add(client);
        JuneauController c = JuneauController.start(client, options);
        controllers.add(c);
        return c;
    }

    /**
     * Stops a controller the way a crashed process does as far as the Lease goes: its release never arrives, so a
     * standby has to wait for the Lease to expire.
     */
    public void crash(JuneauController c) {
        if (!controllers.contains(c)) {
            throw new IllegalArgumentException("not a controller of this cluster");
        }
        dispatcher.loseLeaseWrites(true);
        try {
            c.close();
        } finally {
            dispatcher.loseLeaseWrites(false);
        }
    }

    /**
     * The controller has nothing left to do (no key waiting, running or waiting for a retry, read from its
     * metrics) and nobody has written anything for {@code quiet}: the echoes of its last writes are in too.
     */
    public boolean settled(JuneauController c, Duration quiet) {
        return Scrape.unfinishedWork(c) == 0 && System.nanoTime() - dispatcher.lastWriteNanos() > quiet.toNanos();
    }

    // ---- objects ----

    public AddressPool pool(String name, String mode, String... entries) {
        AddressPool p = new AddressPool();
        p.getMetadata().setName(name);
        p.setSpec(new AddressPoolSpec(mode, List.of(entries)));
        return client.resource(p).create();
    }

    public ExternalNetwork network(String name, String type, String... pools) {
        ExternalNetwork n = new ExternalNetwork();
        n.getMetadata().setName(name);
        n.setSpec(new ExternalNetworkSpec(type, List.of(pools)));
        return client.resource(n).create();
    }

    /** Creates the Node (with a made-up InternalIP in 172.31/16) unless it exists. */
    public void ensureNode(String name) {
        if (name == null || !knownNodes.add(name) || client.nodes().withName(name).get() != null) {
            return;
        }
        int n = nodeAddresses.incrementAndGet();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("172.31." + (n / 250) + "." + (1 + n % 250))
                .endAddress().endStatus().build()).create();
    }

    public Node node(String name, String internalIp) {
        knownNodes.add(name);
        return client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress(internalIp).endAddress().endStatus()
                .build()).create();
    }

    public static ServiceBuilder managedService(String ns, String name, String network) {
        return new ServiceBuilder().withNewMetadata().withNamespace(ns).withName(name)
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, network).endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local")
                .withPorts(new ServicePortBuilder().withName("http").withProtocol("TCP").withPort(80)
                        .withTargetPort(new IntOrString(8080)).build())
                .endSpec();
    }

    public Service service(String ns, String name, String network) {
        return create(managedService(ns, name, network).build());
    }

    public Service serviceRequesting(String ns, String name, String network, String ip) {
        return create(managedService(ns, name, network).editMetadata()
                .addToAnnotations(JuneauConstants.ANNOTATION_REQUESTED_IP, ip).endMetadata().build());
    }

    public static ServicePort port(String name, int port, Object target) {
        return new ServicePortBuilder().withName(name).withProtocol("TCP").withPort(port)
                .withTargetPort(target instanceof Integer i ? new IntOrString(i) : new IntOrString((String) target))
                .build();
    }

    /** One IPv4 EndpointSlice named {@code <svc>-1} for the Service, one ready endpoint per node. */
    public EndpointSlice endpoints(String ns, String svc, String... readyNodes) {
        List<Endpoint> eps = new ArrayList<>();
        int i = 1;
        for (String n : readyNodes) {
            eps.add(endpoint("10.244." + (Math.abs(svc.hashCode()) % 200) + "." + i++, n, true));
        }
        return slice(ns, svc, eps);
    }

    public static Endpoint endpoint(String ip, String node, boolean ready) {
        return new EndpointBuilder().withAddresses(ip).withNodeName(node).withNewConditions().withReady(ready)
                .endConditions().build();
    }

    /**
     * Creates or replaces {@code <svc>-1} with these endpoints (port "http" → 8080). Nodes the endpoints name are
     * created when missing, as the kubelet's Node would exist in a cluster (an ARPAdvertisement may only name an
     * existing Node).
     */
    public EndpointSlice slice(String ns, String svc, List<Endpoint> endpoints) {
        endpoints.forEach(e -> ensureNode(e.getNodeName()));
        EndpointSlice s = sliceOf(ns, svc, endpoints);
        ensureNamespace(ns);
        EndpointSlice existing = client.discovery().v1().endpointSlices().inNamespace(ns).withName(svc + "-1").get();
        if (existing == null) {
            return client.resource(s).create();
        }
        s.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        return client.resource(s).update();
    }

    /** The slice {@code <svc>-1} with these endpoints, not written. */
    public static EndpointSlice sliceOf(String ns, String svc, List<Endpoint> endpoints) {
        return new EndpointSliceBuilder().withNewMetadata().withNamespace(ns).withName(svc + "-1")
                .addToLabels(JuneauConstants.SERVICE_NAME_LABEL, svc).endMetadata()
                .withAddressType("IPv4").withEndpoints(endpoints)
                .withPorts(new EndpointPortBuilder().withName("http").withProtocol("TCP").withPort(8080).build())
                .build();
    }

    public <T extends HasMetadata> T create(T o) {
        ensureNamespace(o.getMetadata().getNamespace());
        return client.resource(o).create();
    }

    /** Creates the namespace unless it exists (the API server refuses objects in a namespace that does not). */
    public void ensureNamespace(String ns) {
        if (ns == null || !knownNamespaces.add(ns) || client.namespaces().withName(ns).get() != null) {
            return;
        }
        try {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
    }

    // ---- reads ----

    public ServiceLoadBalancer slb(String ns, String name) {
        return client.resources(ServiceLoadBalancer.class).inNamespace(ns).withName(name).get();
    }

    public List<ServiceLoadBalancer> slbs() {
        return client.resources(ServiceLoadBalancer.class).inAnyNamespace().list().getItems();
    }

    public ARPAdvertisement arp(String ns, String name) {
        return client.resources(ARPAdvertisement.class).withName(JuneauConstants.arpAdvertisementName(ns, name)).get();
    }

    public List<ARPAdvertisement> arps() {
        return client.resources(ARPAdvertisement.class).list().getItems();
    }

    public Service svc(String ns, String name) {
        return client.services().inNamespace(ns).withName(name).get();
    }

    public AddressPool getPool(String name) {
        return client.resources(AddressPool.class).withName(name).get();
    }

    /** Core v1 events about one Service, by reason. */
    public List<io.fabric8.kubernetes.api.model.Event> events(String ns, String svc, String reason) {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && svc.equals(e.getInvolvedObject().getName()))
                .filter(e -> reason == null || reason.equals(e.getReason())).toList();
    }

    public Map<String, String> phases() {
        Map<String, String> m = new HashMap<>();
        for (ServiceLoadBalancer s : slbs()) {
            m.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                    s.getStatus() == null ? null : s.getStatus().getPhase());
        }
        return m;
    }

    /** The API server goes away (connections and watches cut) until the handle is closed; the store stays. */
    public AutoCloseable apiServerDown() {
        return server.outage();
    }

    @Override
    public void close() {
        controllers.forEach(JuneauController::close);
        controllerClients.forEach(KubernetesClient::close);
        if (client != null) {
            client.close();
        }
        webhook.stop();
        if (webhookClient != null) {
            webhookClient.close();
        }
        server.close();
        deleteTree(tlsDir);
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temp directory left behind holds only a throwaway test certificate
        }
    }
}
