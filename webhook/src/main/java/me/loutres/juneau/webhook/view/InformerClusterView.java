package me.loutres.juneau.webhook.view;

import me.loutres.juneau.policy.DefaultNetwork;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.IpRange;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.runtime.watch.LeanStore;
import me.loutres.juneau.runtime.watch.NamespaceLabelsStore;
import me.loutres.juneau.runtime.watch.Watched;
import me.loutres.juneau.runtime.watch.WatchedCache;
import me.loutres.juneau.view.BgpNames;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.PoolEntryRef;
import me.loutres.juneau.view.IpLearntRange;
import me.loutres.juneau.view.IpPoolEntryRef;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.WideRangeIndex;
import me.loutres.juneau.view.Secrets;
import me.loutres.juneau.view.ViewKeys;
import me.loutres.juneau.view.NodeNetworkAddresses;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster view of a webhook running in a cluster: one shared informer per kind the rules read, answering from its
 * cache (no API call per admission request). Not ready until every informer has listed once.
 */
public final class InformerClusterView implements ClusterView, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InformerClusterView.class);

    /**
     * One RBAC permission the informers need; {@link #REQUIRED_ACCESS} is what the webhook's roles grant.
     * {@code namespace} null: cluster-wide (the ClusterRole); else only there (a Role in that namespace).
     */
    public record Access(String apiGroup, String resource, List<String> verbs, String namespace) {
        public Access(String apiGroup, String resource, List<String> verbs) {
            this(apiGroup, resource, verbs, null);
        }
    }

    /**
     * Informers list then watch; a cache miss on a pool, network or node is read once more from the API server
     * (get). Nothing is written.
     */
    public static final List<Access> REQUIRED_ACCESS = List.of(
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_ADDRESS_POOLS, List.of("get", "list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_EXTERNAL_NETWORKS,
                    List.of("get", "list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, List.of("list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, List.of("list", "watch")),
            new Access("", "nodes", List.of("get", "list", "watch")),
            new Access("networking.k8s.io", "servicecidrs", List.of("list", "watch")),
            // the nodes' interface addresses and gateways, kept out of pools (docs/api-reference.md, NodeNetwork)
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_NODE_NETWORKS, List.of("list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_BGP_PEERS, List.of("get", "list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_BFD_PROFILES, List.of("get", "list", "watch")),
            // a BGPPeer's password Secret is checked to exist with its key; only juneau-system is readable, and the
            // cache keeps names and keys, never values (docs/admission.md, BGPPeer)
            new Access("", "secrets", List.of("get", "list", "watch"), JuneauConstants.SYSTEM_NAMESPACE),
            // who may use an ExternalNetwork reads the labels of the Service's Namespace (docs/install.md, "Sharing a
            // cluster between teams"): names and labels only, never a get
            new Access("", "namespaces", List.of("list", "watch")));

    /** How often the view looks at its watches: a sync or a lost watch is said within a second. */
    static final long CHECK_MILLIS = 250;
    static final String BY_ADDRESS = "peerAddress";
    static final String BY_BFD_PROFILE = "bfdProfile";
    static final String BY_PEER = "bgpPeer";

    private final WatchedCache cache = new WatchedCache("cluster view", new ApiConnection(),
            WatchedCache.Policy.DEFAULT.checkingEvery(Duration.ofMillis(CHECK_MILLIS)));
    private final Watched<AddressPool> pools;
    private final Watched<ExternalNetwork> networks;
    private final Watched<ServiceLoadBalancer> slbs;
    private final Watched<ARPAdvertisement> arps;
    private final Watched<Node> nodes;
    private final Watched<BGPPeer> peers;
    private final Watched<BFDProfile> bfdProfiles;
    private final Watched<Secret> secrets;
    private final Watched<Namespace> namespaces;
    private final List<Watched<?>> all;
    private final RangeIndex<PoolEntryRef> poolEntries = new RangeIndex<>();
    private final RangeIndex<String> nodeIps = new RangeIndex<>();
    private final RangeIndex<LearntRange> learnt = new RangeIndex<>();
    private final WideRangeIndex<IpPoolEntryRef> ipv6PoolEntries = new WideRangeIndex<>();
    private final WideRangeIndex<String> ipv6NodeIps = new WideRangeIndex<>();
    private final WideRangeIndex<IpLearntRange> ipv6Learnt = new WideRangeIndex<>();
    private final MissLookup missLookup;

    /**
     * Every kind the rules read is stored lean (docs/design.md, "Lean watch stores"): without managedFields, kubectl's
     * last-applied copy and fabric8's empty containers; the webhook never writes, so nothing else needs them.
     */
    private static <T extends HasMetadata> java.util.function.Supplier<LeanStore<T>> lean() {
        return () -> new LeanStore<>(true);
    }

    private InformerClusterView(KubernetesClient client, MissLookup missLookup) {
        // before the informers start: their events are then read straight into Juneau's classes
        me.loutres.juneau.api.v1alpha1.JuneauResources.KINDS.forEach(client.getKubernetesSerialization()::registerKubernetesResource);
        this.missLookup = missLookup;
        // the indexes a review reads (docs/admission.md, "Cost of a review"): keys computed once per object version
        pools = cache.watch("AddressPool", client.resources(AddressPool.class)).store(lean());
        networks = cache.watch("ExternalNetwork", client.resources(ExternalNetwork.class)).store(lean()).indexers(Map.of(
                ViewKeys.BY_POOL, ViewKeys::pools, ViewKeys.BY_DEFAULT_MARK, ViewKeys::defaultMark,
                BY_PEER, BgpNames::peersOf));
        slbs = cache.watch("ServiceLoadBalancer", client.resources(ServiceLoadBalancer.class).inAnyNamespace())
                .store(lean())
                .indexers(Map.of(ViewKeys.BY_VIP, ViewKeys::vip, ViewKeys.BY_NETWORK, ViewKeys::network));
        arps = cache.watch("ARPAdvertisement", client.resources(ARPAdvertisement.class)).store(lean())
                .indexers(Map.of(ViewKeys.BY_ADDRESS, ViewKeys::arpAddress));
        nodes = cache.watch("Node", client.nodes()).store(lean());
        Watched<ServiceCIDR> serviceCidrs = cache.watch("ServiceCIDR", client.resources(ServiceCIDR.class))
                .store(lean()).optional("cluster view: the API server does not serve networking.k8s.io/v1 ServiceCIDRs (Kubernetes "
                        + "before 1.33); --reserved-cidr and the Nodes' podCIDRs keep cluster addresses out of pools");
        // ranges need a sorted structure an informer indexer (exact keys) cannot give: fed by the informers' events
        pools.on(RangeFeed.of(poolEntries, ViewKeys::poolEntries));
        nodes.on(RangeFeed.of(nodeIps, ViewKeys::internalIps));
        nodes.on(RangeFeed.of(learnt, "Node/", ViewKeys::podCidrs));
        serviceCidrs.on(RangeFeed.of(learnt, "ServiceCIDR/", ViewKeys::serviceCidrs));
        pools.on(RangeFeed.of(ipv6PoolEntries, ViewKeys::ipv6PoolEntries));
        nodes.on(RangeFeed.of(ipv6NodeIps, ViewKeys::ipv6InternalIps));
        nodes.on(RangeFeed.of(ipv6Learnt, "Node/", ViewKeys::ipv6PodCidrs));
        serviceCidrs.on(RangeFeed.of(ipv6Learnt, "ServiceCIDR/", ViewKeys::ipv6ServiceCidrs));
        // what each node's agent reports of its interfaces and gateways (docs/api-reference.md, NodeNetwork): their addresses are learnt ranges
        Watched<NodeNetwork> nodeNetworks = cache.watch("NodeNetwork",
                client.resources(NodeNetwork.class))
                .optional("cluster view: the API server does not serve juneau.loutres.me NodeNetworks (the CRD of"
                        + " an older release); pool entries are not checked against the nodes' interface addresses"
                        + " and gateways");
        nodeNetworks.on(RangeFeed.of(learnt, "NodeNetwork/", NodeNetworkAddresses::ipv4));
        nodeNetworks.on(RangeFeed.of(ipv6Learnt, "NodeNetwork/", NodeNetworkAddresses::ipv6));
        peers = cache.watch("BGPPeer", client.resources(BGPPeer.class)).store(lean()).indexers(Map.of(
                BY_ADDRESS, p -> p.getSpec() == null || p.getSpec().getPeerAddress() == null ? List.of()
                        : List.of(p.getSpec().getPeerAddress()),
                BY_BFD_PROFILE, p -> p.getSpec() == null || p.getSpec().getBfdProfile() == null ? List.of()
                        : List.of(p.getSpec().getBfdProfile())));
        bfdProfiles = cache.watch("BFDProfile", client.resources(BFDProfile.class)).store(lean());
        secrets = cache.watch("Secret", client.secrets().inNamespace(JuneauConstants.SYSTEM_NAMESPACE))
                .store(KeysOnlyStore::new);
        namespaces = cache.watch("Namespace", client.namespaces()).store(NamespaceLabelsStore::new);
        all = List.of(pools, networks, slbs, arps, nodes, serviceCidrs, nodeNetworks, peers, bfdProfiles, secrets,
                namespaces);
    }

    /** Starts the informers without waiting for them: {@link #synced()} says when the view can be trusted. */
    public static InformerClusterView start(KubernetesClient client) {
        return start(client, MissLookup.api(client));
    }

    /**
     * As {@link #start(KubernetesClient)}, reading cache misses with the given lookup. An unreachable API server is
     * an expected outage, at start as later: the runtime's {@link WatchedCache} retries every informer with the
     * client's backoff and says so in one line per change.
     */
    public static InformerClusterView start(KubernetesClient client, MissLookup missLookup) {
        InformerClusterView view = new InformerClusterView(client, missLookup);
        view.cache.start();
        return view;
    }

    /** A view whose caches never fill: every named lookup is a miss (tests of the read-through). */
    static InformerClusterView unstarted(KubernetesClient client) {
        return new InformerClusterView(client, MissLookup.api(client));
    }

    /** True once every informer has completed its first list. */
    public boolean synced() {
        return cache.synced();
    }

    /** The informer of one kind (tests stop one to see liveness fail). */
    SharedIndexInformer<?> informer(String kind) {
        return all.stream().filter(w -> w.kind().equals(kind)).findFirst().orElseThrow().informer();
    }

    /** True while every informer has a live watch (false during an outage, while the caches go stale). */
    boolean watching() {
        return cache.watching();
    }

    /**
     * The kinds whose informer stopped for good while the view is open: the webhook can only recover by a restart,
     * so liveness fails with these names. Empty while informers run or retry.
     */
    public List<String> stopped() {
        return cache.stopped();
    }

    /*
     * `kubectl apply -f` of a pool and the network that lists it, in one file, sends the network's review
     * milliseconds after the pool was stored: before the watch event reaches this cache. A miss on a named object
     * is therefore read once from the API server instead of being reported as missing. Misses are rare (they are
     * mostly denials), so this costs nothing on the hot path.
     */
    @Override
    public Optional<AddressPool> addressPool(String name) {
        return byKey(pools, name).or(() -> live(AddressPool.class, name));
    }

    @Override
    public Collection<AddressPool> addressPools() {
        return pools.list();
    }

    @Override
    public Optional<ExternalNetwork> externalNetwork(String name) {
        return byKey(networks, name).or(() -> live(ExternalNetwork.class, name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworks() {
        return networks.list();
    }

    @Override
    public Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name) {
        return namespace == null || name == null ? Optional.empty() : byKey(slbs, namespace + "/" + name);
    }

    @Override
    public Collection<ServiceLoadBalancer> serviceLoadBalancers() {
        return slbs.list();
    }

    @Override
    public Collection<ARPAdvertisement> arpAdvertisements() {
        return arps.list();
    }

    @Override
    public Optional<Node> node(String name) {
        return byKey(nodes, name).or(() -> live(Node.class, name));
    }

    /** A read-through on a cache miss; an unreachable API server means "not there", as the cache said. */
    private <T extends HasMetadata> Optional<T> live(Class<T> type, String name) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(type.cast(missLookup.get(type, name)));
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            missReadFailed(name, e);
            return Optional.empty();
        }
    }

    /** The last cache-miss read failure said at WARN: the same failure again (every review while it lasts) is DEBUG. */
    private volatile String lastMissFailure;

    /** A read-through that failed is judged as "not there"; said once at WARN per distinct failure, not silently. */
    private void missReadFailed(String name, io.fabric8.kubernetes.client.KubernetesClientException e) {
        String failure = e.getCode() + " " + e.getMessage();
        if (!failure.equals(lastMissFailure)) {
            lastMissFailure = failure;
            LOG.warn("cluster view: reading {} after a cache miss failed (judged as absent): {}", name, e.getMessage());
        } else {
            LOG.debug("cluster view: reading {} after a cache miss failed again: {}", name, e.getMessage());
        }
    }

    /** A Secret of juneau-system from the cache (keys only) or, on a miss, read once from the API server, never kept. */
    private Optional<Secret> systemSecret(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        Secret cached = secrets.get(JuneauConstants.SYSTEM_NAMESPACE + "/" + name);
        if (cached != null) {
            return Optional.of(cached);
        }
        try {
            return Optional.ofNullable(missLookup.secret(JuneauConstants.SYSTEM_NAMESPACE, name));
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            missReadFailed("Secret " + name, e);
            return Optional.empty();
        }
    }

    @Override
    public Collection<Node> nodes() {
        return nodes.list();
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address) {
        return slbs.byIndex(ViewKeys.BY_VIP, ViewKeys.address(address));
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network) {
        return network == null ? List.of() : slbs.byIndex(ViewKeys.BY_NETWORK, network);
    }

    @Override
    public List<ExternalNetwork> defaultNetworks() {
        return networks.byIndex(ViewKeys.BY_DEFAULT_MARK, DefaultNetwork.TRUE);
    }

    @Override
    public List<ExternalNetwork> externalNetworksListingPool(String pool) {
        return pool == null ? List.of() : networks.byIndex(ViewKeys.BY_POOL, pool);
    }

    @Override
    public List<ARPAdvertisement> arpAdvertisementsAt(long address) {
        return arps.byIndex(ViewKeys.BY_ADDRESS, ViewKeys.address(address));
    }

    @Override
    public List<PoolEntryRef> poolEntriesOverlapping(AddressRange range) {
        return poolEntries.overlapping(range).stream().map(RangeIndex.Hit::value).toList();
    }

    @Override
    public List<RangeIndex.Hit<String>> nodeInternalIpsIn(AddressRange range) {
        return nodeIps.overlapping(range);
    }

    @Override
    public List<LearntRange> learntRangesOverlapping(AddressRange range) {
        return learnt.overlapping(range).stream().map(RangeIndex.Hit::value).toList();
    }

    @Override
    public List<IpPoolEntryRef> ipv6PoolEntriesOverlapping(IpRange range) {
        return ipv6PoolEntries.overlapping(range).stream().map(WideRangeIndex.Hit::value).toList();
    }

    @Override
    public List<WideRangeIndex.Hit<String>> ipv6NodeInternalIpsIn(IpRange range) {
        return ipv6NodeIps.overlapping(range);
    }

    @Override
    public List<IpLearntRange> ipv6LearntRangesOverlapping(IpRange range) {
        return ipv6Learnt.overlapping(range).stream().map(WideRangeIndex.Hit::value).toList();
    }

    @Override
    public List<String> names(NamedKind kind) {
        Watched<?> watched = switch (kind) {
            case ADDRESS_POOL -> pools;
            case EXTERNAL_NETWORK -> networks;
            case NODE -> nodes;
        };
        return watched.keys().stream().sorted().toList();
    }

    @Override
    public Optional<BGPPeer> bgpPeer(String name) {
        return byKey(peers, name).or(() -> live(BGPPeer.class, name));
    }

    @Override
    public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
        return peerAddress == null ? List.of() : peers.byIndex(BY_ADDRESS, peerAddress);
    }

    @Override
    public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
        return profile == null ? List.of() : peers.byIndex(BY_BFD_PROFILE, profile);
    }

    @Override
    public Optional<BFDProfile> bfdProfile(String name) {
        return byKey(bfdProfiles, name).or(() -> live(BFDProfile.class, name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
        return peer == null ? List.of() : networks.byIndex(BY_PEER, peer);
    }

    /*
     * A Secret and the BGPPeer naming it, applied in one kubectl apply, race like a pool and its network; a miss is
     * read once from the API server, and only its keys are kept.
     */
    @Override
    public Optional<Set<String>> systemSecretKeys(String name) {
        return systemSecret(name).map(secret -> Set.copyOf(Secrets.keys(secret)));
    }

    /*
     * A Namespace created in the same kubectl apply as its Services may reach this cache after their reviews; with no
     * get on namespaces (least privilege), a miss stays a miss: the rule then selects it by name only, and the message
     * says its labels are not known (a retry a moment later is judged with them).
     */
    @Override
    public Optional<Map<String, String>> namespaceLabels(String name) {
        Namespace ns = name == null ? null : namespaces.get(name);
        return ns == null ? Optional.empty() : Optional.of(ViewKeys.labels(ns));
    }

    /** Read like {@link #systemSecretKeys}: a miss is read once from the API server and judged, never kept. */
    @Override
    public Optional<String> systemSecretPasswordProblem(String name, String key) {
        return systemSecret(name).flatMap(secret -> Secrets.passwordProblem(secret, key));
    }

    /** The Secret cache: each Secret is kept with its keys and, for values, whether each could be a BGP password, so no password stays in memory. */
    private static final class KeysOnlyStore extends BasicItemStore<Secret> {
        KeysOnlyStore() {
            super(Cache::metaNamespaceKeyFunc);
        }

        @Override
        public Secret put(String key, Secret secret) {
            return super.put(key, Secrets.keysOnly(secret));
        }
    }

    private static <T extends HasMetadata> Optional<T> byKey(Watched<T> watched, String key) {
        return Optional.ofNullable(watched.get(key));
    }

    @Override
    public void close() {
        cache.close();
    }
}
