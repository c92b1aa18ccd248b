package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.plan.NodeLiveness;
import me.loutres.juneau.policy.NetworkAccess;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.runtime.watch.LeanStore;
import me.loutres.juneau.runtime.watch.NamespaceLabelsStore;
import me.loutres.juneau.runtime.watch.VersionMemo;
import me.loutres.juneau.runtime.watch.Watched;
import me.loutres.juneau.runtime.watch.WatchedCache;
import me.loutres.juneau.selection.LabelSelectors;
import me.loutres.juneau.view.KubeReader;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.NodeInternalIps;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.ViewKeys;

/**
 * The informer caches the controller reads (it never lists the API server per reconcile), with the indexes
 * that turn a change of one object into exactly the Service keys it affects: a typed facade over the runtime's
 * {@link WatchedCache}, which owns the informers' lifecycle and says an API server outage once.
 */
public final class ClusterCache implements AutoCloseable {
    /** Services by the ExternalNetwork named in their annotation. */
    public static final String BY_NETWORK = "network";
    /** ExternalNetworks by each AddressPool they list. */
    public static final String BY_POOL = "pool";
    /** ExternalNetworks by each label key their {@code spec.nodeSelector} tests. */
    public static final String BY_SELECTOR_KEY = "selectorKey";
    /** EndpointSlices by {@code namespace/service-name}. */
    public static final String BY_SERVICE = "service";
    /** EndpointSlices by the nodeName of each of their endpoints. */
    public static final String BY_NODE = "node";
    /**
     * Services by namespace, the index every informer keeps (fabric8's {@code Cache.NAMESPACE_INDEX}): a Namespace's
     * label change re-queues only its own Services.
     */
    public static final String BY_NAMESPACE = io.fabric8.kubernetes.client.informers.cache.Cache.NAMESPACE_INDEX;
    /** ExternalNetworks by each Namespace label key their {@code spec.serviceAllocation.namespaceSelectors} test. */
    public static final String BY_NAMESPACE_LABEL_KEY = "namespaceLabelKey";

    /** Page size of the initial lists: bounded response sizes on large clusters. */
    private static final long LIST_LIMIT = 500L;

    // no periodic resync: every change arrives as an event, and a resync of 10,000 Services is pure noise. An outage
    // is told by a failed list or a failed Lease read (every retry period, leader and standby alike): the watches
    // reconnect silently, so their state only says when they are all back
    private final WatchedCache cache = new WatchedCache("controller caches", new ApiConnection(),
            WatchedCache.Policy.DEFAULT.withListLimit(LIST_LIMIT).outagesFromOtherPaths());
    private final Watched<Service> services;
    private final Watched<EndpointSlice> slices;
    private final Watched<ServiceLoadBalancer> slbs;
    private final Watched<AddressPool> pools;
    private final Watched<ExternalNetwork> networks;
    private final Watched<ARPAdvertisement> arps;
    private final Watched<Node> nodes;
    private final Watched<Namespace> namespaces;
    private final Watched<Lease> leases;
    private final Watched<BGPSession> sessions;
    /** What each node's agent reads of its interfaces and gateways (docs/api-reference.md, NodeNetwork). */
    private final Watched<me.loutres.juneau.api.v1alpha1.NodeNetwork> nodeNetworks;
    /** The ranges the cluster says it uses: ServiceCIDRs and Nodes' podCIDRs (docs/allocation.md). */
    private final RangeIndex<LearntRange> learnt = new RangeIndex<>();
    /** {@link #learnt} as one list, rebuilt after a change: the same instance while nothing changed. */
    private volatile List<LearntRange> learntList = List.of();
    private final List<java.util.function.Consumer<List<AddressRange>>> learntListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final String leaseNamespace;
    /** How far the Lease watch has shown time: node liveness is judged against it, not against the wall clock. */
    private final LeaseWatchHorizon leaseHorizon;
    /* read-your-writes: what the controller wrote and its informer has not delivered yet */
    private final RecentWrites<Service> serviceWrites;
    private final RecentWrites<ServiceLoadBalancer> slbWrites;
    private final RecentWrites<AddressPool> poolWrites;
    private final RecentWrites<ARPAdvertisement> arpWrites;
    /**
     * The shared reader's verdict ({@link KubeReader#check}: the rules the webhook, {@code validate} and the agent
     * read by) on each version of the objects whose content the controller interprets: it re-serializes the object,
     * so it runs once per version. The controller's own writes are trusted: the planner built them from objects that
     * read cleanly.
     */
    private final VersionMemo<Optional<String>> checks = new VersionMemo<>();

    /** @param agentLeaseNamespace where the node agents' Leases live (docs/phases-and-conditions.md) */
    public ClusterCache(KubernetesClient client, String agentLeaseNamespace) {
        this(client, agentLeaseNamespace, java.time.Clock.systemUTC(), java.time.Duration.ofSeconds(3));
    }

    /**
     * @param clock         the controller's clock (arrival times of Lease events)
     * @param leaseSilence  the longest quiet of the Lease watch that is not an outage: the leader renews its Lease
     *                      every retry period, so a longer silence is the watch (or this process) stopped
     */
    public ClusterCache(KubernetesClient client, String agentLeaseNamespace, java.time.Clock clock,
            java.time.Duration leaseSilence) {
        leaseHorizon = new LeaseWatchHorizon(clock, leaseSilence);
        // before the first informer starts: its events are then read straight into Juneau's classes
        me.loutres.juneau.api.v1alpha1.JuneauResources.KINDS.forEach(client.getKubernetesSerialization()::registerKubernetesResource);
        services = cache.watch("Service", client.services().inAnyNamespace()).store(lean(true)).indexers(
                Map.of(BY_NETWORK, s -> nonNull(annotation(s, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK))));
        slices = cache.watch("EndpointSlice", client.discovery().v1().endpointSlices().inAnyNamespace())
                .store(lean(true)).indexers(
                Map.of(BY_SERVICE, s -> {
                    String svc = label(s, JuneauConstants.SERVICE_NAME_LABEL);
                    return svc == null ? List.of() : List.of(s.getMetadata().getNamespace() + "/" + svc);
                }, BY_NODE, s -> s.getEndpoints() == null ? List.of() : s.getEndpoints().stream()
                        .map(e -> e.getNodeName()).filter(java.util.Objects::nonNull).distinct().toList()));
        slbs = cache.watch("ServiceLoadBalancer", client.resources(ServiceLoadBalancer.class).inAnyNamespace())
                .store(lean(false));
        pools = cache.watch("AddressPool", client.resources(AddressPool.class)).store(lean(true));
        networks = cache.watch("ExternalNetwork", client.resources(ExternalNetwork.class)).store(lean(true)).indexers(Map.of(BY_POOL,
                n -> n.getSpec() == null || n.getSpec().getAddressPools() == null ? List.of()
                        : List.copyOf(n.getSpec().getAddressPools()),
                BY_SELECTOR_KEY, n -> List.copyOf(LabelSelectors.keys(nodeSelector(n))),
                BY_NAMESPACE_LABEL_KEY, n -> List.copyOf(NetworkAccess.namespaceLabelKeys(n))));
        arps = cache.watch("ARPAdvertisement", client.resources(ARPAdvertisement.class)).store(lean(false));
        nodes = cache.watch("Node", client.nodes()).store(lean(true));
        // who may use an ExternalNetwork reads Namespace labels (docs/install.md, "Sharing a cluster between teams")
        namespaces = cache.watch("Namespace", client.namespaces()).store(NamespaceLabelsStore::new);
        leaseNamespace = agentLeaseNamespace;
        leases = cache.watch("Lease", client.leases().inNamespace(agentLeaseNamespace)).store(lean(true));
        // before any other handler: a Lease event is judged against the horizon it moves
        leases.on(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease l) {
                leaseHorizon.saw(l);
            }

            @Override
            public void onUpdate(Lease o, Lease n) {
                leaseHorizon.saw(n);
            }

            @Override
            public void onDelete(Lease l, boolean unknown) {
                leaseHorizon.saw(null);
            }
        });
        // what each agent reports about its BGP sessions: condition Announced of the Services on that node
        sessions = cache.watch("BGPSession", client.resources(BGPSession.class)).store(lean(true))
                .indexers(Map.of(BY_NODE, s -> nonNull(sessionNode(s))));
        // the cluster's own ranges: addresses of a stored pool inside one are reserved (docs/allocation.md, "Pools
        // overlapping the cluster's ranges"); fed before any other handler sees the event, so a re-queued pool reads
        // the new ranges
        Watched<ServiceCIDR> serviceCidrs = cache.watch("ServiceCIDR", client.resources(ServiceCIDR.class))
                .store(lean(true)).optional("the API server does not serve networking.k8s.io/v1 ServiceCIDRs (Kubernetes before 1.33): "
                        + "only the Nodes' podCIDRs are kept out of pools by the controller");
        nodes.on(learntFeed("Node/", ViewKeys::podCidrs));
        serviceCidrs.on(learntFeed("ServiceCIDR/", ViewKeys::serviceCidrs));
        // the nodes' interface addresses and default gateways, as their agents report them: never handed out, by
        // the same path as the cluster's ranges (docs/api-reference.md, NodeNetwork)
        nodeNetworks = cache.watch("NodeNetwork", client.resources(me.loutres.juneau.api.v1alpha1.NodeNetwork.class))
                .optional("the API server does not serve juneau.loutres.me NodeNetworks (the CRD of an older"
                        + " release): the nodes' interface addresses and gateways are not kept out of pools");
        nodeNetworks.on(learntFeed("NodeNetwork/", me.loutres.juneau.view.NodeNetworkAddresses::ipv4));
        serviceWrites = new RecentWrites<>(services::get);
        // the controller's own ServiceLoadBalancer and ARPAdvertisement writes are planner-built: trusted; a pool
        // status write keeps the spec as stored, so each pool version is checked
        slbWrites = new RecentWrites<>(slbs::get, this::trust);
        poolWrites = new RecentWrites<>(pools::get);
        arpWrites = new RecentWrites<>(arps::get, this::trust);
        forgetCheckOnDelete(slbs);
        forgetCheckOnDelete(pools);
        forgetCheckOnDelete(networks);
        forgetCheckOnDelete(arps);
    }

    /**
     * Every kind is stored lean (docs/design.md, "Lean watch stores"): without managedFields and fabric8's empty
     * containers; {@code dropLastApplied} for the kinds the controller never updates whole (it updates only its own
     * ServiceLoadBalancers and ARPAdvertisements so), whose kubectl last-applied copy no reader reads.
     */
    private static <T extends HasMetadata> java.util.function.Supplier<LeanStore<T>> lean(boolean dropLastApplied) {
        return () -> new LeanStore<>(dropLastApplied);
    }

    private void trust(HasMetadata written) {
        checks.remember(written, Optional.empty());
    }

    /**
     * Keeps {@link #learnt} equal to an informer's objects; a change of an object's ranges (not every status update
     * of a Node) rebuilds the list and tells the listeners which ranges came or went.
     */
    private <T extends HasMetadata> ResourceEventHandler<T> learntFeed(String prefix,
            Function<T, List<RangeIndex.Hit<LearntRange>>> ranges) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onUpdate(null, obj);
            }

            // Nodes and ServiceCIDRs arrive on different threads: one change at a time, so the list written last
            // is never one read before the other's change
            @Override
            public void onUpdate(T oldObj, T newObj) {
                List<RangeIndex.Hit<LearntRange>> hits = ranges.apply(newObj);
                synchronized (learnt) {
                    if (learnt.replace(prefix + ViewKeys.key(newObj), hits)) {
                        changed(oldObj == null ? hits : concat(ranges.apply(oldObj), hits));
                    }
                }
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                synchronized (learnt) {
                    if (learnt.remove(prefix + ViewKeys.key(obj))) {
                        changed(ranges.apply(obj));
                    }
                }
            }

            private void changed(List<RangeIndex.Hit<LearntRange>> moved) {
                learntList = learnt.all().stream().map(RangeIndex.Hit::value).toList();
                List<AddressRange> rs = moved.stream().map(RangeIndex.Hit::range).toList();
                learntListeners.forEach(l -> l.accept(rs));
            }
        };
    }

    private static <X> List<X> concat(List<X> a, List<X> b) {
        List<X> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private <T extends HasMetadata> void forgetCheckOnDelete(Watched<T> watched) {
        watched.on(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                // checked when a reconcile first reads this version, not here: most versions are our own writes
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                // idem
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                checks.forget(obj);
            }
        });
    }

    /**
     * The problem the shared reader ({@code KubeReader}, as the webhook and the agent read) has with this object,
     * empty when it reads cleanly. Checked once per version (uid, resourceVersion) of an object, remembered after.
     */
    public Optional<String> unreadable(HasMetadata o) {
        return o == null ? Optional.empty() : checks.read(o, KubeReader::check);
    }

    public RecentWrites<Service> recentServices() {
        return serviceWrites;
    }

    public RecentWrites<ServiceLoadBalancer> recentServiceLoadBalancers() {
        return slbWrites;
    }

    public RecentWrites<AddressPool> recentPools() {
        return poolWrites;
    }

    public RecentWrites<ARPAdvertisement> recentArpAdvertisements() {
        return arpWrites;
    }

    /** Handlers are added before {@link #start()} so the initial list is delivered to them too. */
    public void onServices(ResourceEventHandler<Service> h) {
        services.on(h);
    }

    public void onEndpointSlices(ResourceEventHandler<EndpointSlice> h) {
        slices.on(h);
    }

    public void onServiceLoadBalancers(ResourceEventHandler<ServiceLoadBalancer> h) {
        slbs.on(h);
    }

    public void onAddressPools(ResourceEventHandler<AddressPool> h) {
        pools.on(h);
    }

    public void onExternalNetworks(ResourceEventHandler<ExternalNetwork> h) {
        networks.on(h);
    }

    public void onArpAdvertisements(ResourceEventHandler<ARPAdvertisement> h) {
        arps.on(h);
    }

    public void onNodes(ResourceEventHandler<Node> h) {
        nodes.on(h);
    }

    public void onNodeNetworks(ResourceEventHandler<me.loutres.juneau.api.v1alpha1.NodeNetwork> h) {
        nodeNetworks.on(h);
    }

    public void onNamespaces(ResourceEventHandler<Namespace> h) {
        namespaces.on(h);
    }

    public void onBgpSessions(ResourceEventHandler<BGPSession> h) {
        sessions.on(h);
    }

    public void onLeases(ResourceEventHandler<Lease> h) {
        leases.on(h);
    }

    /**
     * Told the ranges that came or went each time a ServiceCIDR's or a Node's ranges change, after the cache holds
     * the new ones (on the informer's thread: queue work, do not do it).
     */
    public void onLearntRangesChanged(java.util.function.Consumer<List<AddressRange>> listener) {
        learntListeners.add(listener);
    }

    /** Every range the cluster says it uses (ServiceCIDRs, Nodes' podCIDRs); the same list until one changes. */
    public List<LearntRange> learntRanges() {
        return learntList;
    }

    /** The learnt ranges sharing an address with {@code range}. */
    public List<LearntRange> learntRangesOverlapping(AddressRange range) {
        return learnt.overlapping(range).stream().map(RangeIndex.Hit::value).toList();
    }

    /** Starts every informer; the future completes when all caches hold their initial list. */
    public CompletableFuture<Void> start() {
        return cache.start();
    }

    public boolean synced() {
        return cache.synced();
    }

    /** Every informer watches (true between outages). */
    public boolean watching() {
        return cache.watching();
    }

    /** Hears the leader election's Lease reads: the one signal of an outage while the watches reconnect. */
    public me.loutres.juneau.runtime.LeaseReads leaseReads() {
        return cache.connection();
    }

    /** Informers that stopped for good (they never do while retrying; a closed or broken one does). */
    public boolean stopped() {
        return !cache.stopped().isEmpty();
    }

    /* single-object reads show the controller's own writes at once (the informer may still lag behind) */

    public Service service(ServiceKey key) {
        String k = key.toString();
        return serviceWrites.read(k, services.get(k));
    }

    public List<Service> services() {
        return services.list();
    }

    public ServiceLoadBalancer serviceLoadBalancer(ServiceKey key) {
        String k = key.toString();
        return slbWrites.read(k, slbs.get(k));
    }

    public List<ServiceLoadBalancer> serviceLoadBalancers() {
        return slbs.list();
    }

    public List<EndpointSlice> endpointSlicesOf(ServiceKey key) {
        return slices.byIndex(BY_SERVICE, key.toString());
    }

    public AddressPool pool(String name) {
        return name == null ? null : poolWrites.read(name, pools.get(name));
    }

    public List<AddressPool> pools() {
        return pools.list();
    }

    public ExternalNetwork network(String name) {
        return name == null ? null : networks.get(name);
    }

    public List<ExternalNetwork> networks() {
        return networks.list();
    }

    public List<ExternalNetwork> networksListing(String pool) {
        return networks.byIndex(BY_POOL, pool);
    }

    /** Networks whose {@code spec.nodeSelector} tests the label key: a change of it may change who announces. */
    public List<ExternalNetwork> networksSelectingOn(String labelKey) {
        return networks.byIndex(BY_SELECTOR_KEY, labelKey);
    }

    /** The network's {@code spec.nodeSelector}, or null (every node). */
    public static LabelSelector nodeSelector(ExternalNetwork n) {
        return n == null || n.getSpec() == null ? null : n.getSpec().getNodeSelector();
    }

    /** Services whose annotation names the network (whether managed or not; the caller filters). */
    /** The ExternalNetworks whose namespace selectors test this Namespace label key. */
    public List<ExternalNetwork> networksSelectingNamespacesOn(String labelKey) {
        return networks.byIndex(BY_NAMESPACE_LABEL_KEY, labelKey);
    }

    /** The Services of one namespace (an index, not a scan). */
    public List<Service> servicesIn(String namespace) {
        return namespace == null ? List.of() : services.byIndex(BY_NAMESPACE, namespace);
    }

    /** A Namespace's labels (empty when it has none), or null when the cache holds no Namespace of that name. */
    public Map<String, String> namespaceLabels(String name) {
        Namespace ns = name == null ? null : namespaces.get(name);
        return ns == null ? null : ViewKeys.labels(ns);
    }

    public List<Service> servicesOfNetwork(String network) {
        return services.byIndex(BY_NETWORK, network);
    }

    public ARPAdvertisement arpAdvertisement(String name) {
        return arpWrites.read(name, arps.get(name));
    }

    /** Writes whose watch event has not come back yet. */
    public int unobservedWrites() {
        return slbWrites.size() + arpWrites.size() + serviceWrites.size() + poolWrites.size();
    }

    public List<Node> nodes() {
        return nodes.list();
    }

    /** Every node's NodeNetwork as its agent wrote it (docs/api-reference.md, NodeNetwork). */
    public List<me.loutres.juneau.api.v1alpha1.NodeNetwork> nodeNetworks() {
        return nodeNetworks.list();
    }

    /** Services with an endpoint on the node (from their EndpointSlices' labels). */
    public List<ServiceKey> servicesWithEndpointsOn(String node) {
        return slices.byIndex(BY_NODE, node).stream()
                .filter(s -> label(s, JuneauConstants.SERVICE_NAME_LABEL) != null)
                .map(s -> new ServiceKey(s.getMetadata().getNamespace(), label(s, JuneauConstants.SERVICE_NAME_LABEL)))
                .distinct().toList();
    }

    public Set<String> nodeNames() {
        return Set.copyOf(nodes.keys());
    }

    /** Node InternalIPs (IPv4) → the Node's name (the shared reader). */
    public Map<Long, String> nodeAddresses() {
        return NodeInternalIps.byAddress(nodes.list());
    }

    /** How far the Lease watch has shown time (docs/operations.md, "Node liveness after an outage"). */
    public LeaseWatchHorizon leaseHorizon() {
        return leaseHorizon;
    }

    /** A Lease of the agents' namespace by name (the controller's own watch tick, say), or null. */
    public Lease lease(String name) {
        return leases.get(leaseNamespace + "/" + name);
    }

    /** The agent Lease of a node, or null. */
    public Lease agentLease(String node) {
        return leases.get(leaseNamespace + "/" + NodeLiveness.LEASE_PREFIX + node);
    }

    /** The BGPSessions the agent of the node reports. */
    public List<BGPSession> bgpSessionsOf(String node) {
        return node == null ? List.of() : sessions.byIndex(BY_NODE, node);
    }

    /** The node a BGPSession belongs to: {@code spec.nodeName}, else its node label. */
    public static String sessionNode(BGPSession s) {
        String n = s.getSpec() == null ? null : s.getSpec().getNodeName();
        return n != null ? n : label(s, JuneauConstants.LABEL_NODE);
    }

    /** A Node's labels (empty when it has none), or null when no Node of that name exists. */
    public Map<String, String> nodeLabels(String name) {
        Node n = name == null ? null : nodes.get(name);
        if (n == null) {
            return null;
        }
        Map<String, String> l = n.getMetadata().getLabels();
        return l == null ? Map.of() : l;
    }

    @Override
    public void close() {
        cache.close();
    }

    public static String annotation(HasMetadata o, String name) {
        Map<String, String> a = o.getMetadata().getAnnotations();
        return a == null ? null : a.get(name);
    }

    public static String label(HasMetadata o, String name) {
        Map<String, String> l = o.getMetadata().getLabels();
        return l == null ? null : l.get(name);
    }

    private static List<String> nonNull(String v) {
        return v == null ? List.of() : List.of(v.trim());
    }
}
