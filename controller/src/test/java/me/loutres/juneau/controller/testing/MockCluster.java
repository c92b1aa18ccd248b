package me.loutres.juneau.controller.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;

/**
 * A fabric8 mock API server in CRUD mode with the four CRDs created inside it (status subresource on for the
 * kinds that have a status, so a status write changes only the status, as on a real server), a client for the
 * test and clients for controllers, and builders for the objects the scenarios need.
 *
 * <p>Known gaps of the mock that the controller must not rely on: no server-side apply, no strategic merge
 * patch, no garbage collection (ownerReferences do nothing), {@code in}/{@code notin} selectors ignored, PUT on a
 * status subresource does not check the resourceVersion (merge patches carrying it do).
 */
public final class MockCluster implements AutoCloseable {
    public static final String CONTROLLER_AGENT = "juneau-controller-under-test";
    private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver.MockWebServer");

    private final TestDispatcher dispatcher;
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final List<KubernetesClient> controllerClients = new ArrayList<>();
    private final List<JuneauController> controllers = new ArrayList<>();
    private final java.util.Set<String> knownNodes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger nodeAddresses = new java.util.concurrent.atomic.AtomicInteger();

    public MockCluster() {
        this(new TestDispatcher());
    }

    public MockCluster(TestDispatcher dispatcher) {
        this(dispatcher, -1);
    }

    /** A fresh cluster listening on a chosen loopback port (-1: any), e.g. to bring an API server back. */
    public static MockCluster onPort(int port) {
        return new MockCluster(new TestDispatcher(), port);
    }

    private MockCluster(TestDispatcher dispatcher, int port) {
        this.dispatcher = dispatcher;
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        if (port < 0) {
            server.init();
        } else {
            server.init(java.net.InetAddress.getLoopbackAddress(), port);
        }
        client = server.createClient();
        for (Class<? extends CustomResource<?, ?>> kind : List.of(AddressPool.class, ExternalNetwork.class,
                ServiceLoadBalancer.class, ARPAdvertisement.class)) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd(kind)).create();
        }
    }

    /** The CRD of a kind as the mock needs it: generated from the class, status subresource on when it has one. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static CustomResourceDefinition crd(Class<? extends CustomResource<?, ?>> kind) {
        CustomResourceDefinitionBuilder b = CustomResourceDefinitionContext.v1CRDFromCustomResourceType((Class) kind);
        boolean hasStatus = kind != ExternalNetwork.class && kind != ARPAdvertisement.class;
        if (hasStatus) {
            b = b.editSpec().editFirstVersion().withNewSubresources().withNewStatus().endStatus().endSubresources()
                    .endVersion().endSpec();
        }
        return b.build();
    }

    public KubernetesClient client() {
        return client;
    }

    public TestDispatcher dispatcher() {
        return dispatcher;
    }

    /** A client whose requests the dispatcher can tell apart (user agent) from the test's own. */
    public KubernetesClient newControllerClient() {
        KubernetesClient c = server.createClient(b -> b.editOrNewConfig().withUserAgent(CONTROLLER_AGENT)
                .withRequestRetryBackoffLimit(0).endConfig());
        controllerClients.add(c);
        return c;
    }

    /** A controller client the cluster does not keep (the caller closes it), so it can be garbage collected. */
    public KubernetesClient newUntrackedControllerClient() {
        return server.createClient(b -> b.editOrNewConfig().withUserAgent(CONTROLLER_AGENT)
                .withRequestRetryBackoffLimit(0).endConfig());
    }

    public static ControllerOptions fastOptions(String identity) {
        return ControllerOptions.defaults(identity).withNamespace("juneau-system").withMetricsPort(-1).withWorkers(2)
                .withLease(Duration.ofMillis(1500), Duration.ofMillis(1000), Duration.ofMillis(200));
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
     * Stops a controller the way a crashed process does as far as the Lease goes: its release never arrives, so a
     * standby has to wait for the Lease to expire. (Cutting its connection instead would stall the mock server,
     * which blocks when a busy watch is dropped.)
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
        return client.resource(o).create();
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

    @Override
    public void close() {
        controllers.forEach(JuneauController::close);
        controllerClients.forEach(KubernetesClient::close);
        client.close();
        server.destroy();
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }
}
