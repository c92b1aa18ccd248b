package me.loutres.juneau.webhook.view;

import me.loutres.juneau.policy.DefaultNetwork;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
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
import me.loutres.juneau.view.BgpNames;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.PoolEntryRef;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.Secrets;
import me.loutres.juneau.view.ViewKeys;
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
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_BGP_PEERS, List.of("get", "list", "watch")),
            new Access(JuneauConstants.GROUP, JuneauConstants.PLURAL_BFD_PROFILES, List.of("get", "list", "watch")),
            // a BGPPeer's password Secret is checked to exist with its key; only juneau-system is readable, and the
            // cache keeps names and keys, never values (docs/admission.md, BGPPeer)
            new Access("", "secrets", List.of("get", "list", "watch"), JuneauConstants.SYSTEM_NAMESPACE));

    static final String BY_ADDRESS = "peerAddress";
    static final String BY_BFD_PROFILE = "bfdProfile";
    static final String BY_PEER = "bgpPeer";

    private final SharedIndexInformer<AddressPool> pools;
    private final SharedIndexInformer<ExternalNetwork> networks;
    private final SharedIndexInformer<ServiceLoadBalancer> slbs;
    private final SharedIndexInformer<ARPAdvertisement> arps;
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<ServiceCIDR> serviceCidrs;
    private final SharedIndexInformer<BGPPeer> peers;
    private final SharedIndexInformer<BFDProfile> bfdProfiles;
    private final SharedIndexInformer<Secret> secrets;
    // false once the API server answered 404 for ServiceCIDRs (before Kubernetes 1.33): that informer is then
    // left out of synced, watching and stopped
    private volatile boolean serviceCidrsServed = true;
    private final RangeIndex<PoolEntryRef> poolEntries = new RangeIndex<>();
    private final RangeIndex<String> nodeIps = new RangeIndex<>();
    private final RangeIndex<LearntRange> learnt = new RangeIndex<>();
    private final MissLookup missLookup;
    private final ConnectionLog log = new ConnectionLog(LOG);
    private volatile boolean closed;

    private InformerClusterView(KubernetesClient client, MissLookup missLookup) {
        // before the informers start: their events are then read straight into Juneau's classes
        me.loutres.juneau.api.v1alpha1.JuneauResources.KINDS.forEach(client.getKubernetesSerialization()::registerKubernetesResource);
        this.missLookup = missLookup;
        pools = client.resources(AddressPool.class).runnableInformer(0);
        networks = client.resources(ExternalNetwork.class).runnableInformer(0);
        slbs = client.resources(ServiceLoadBalancer.class).inAnyNamespace().runnableInformer(0);
        arps = client.resources(ARPAdvertisement.class).runnableInformer(0);
        nodes = client.nodes().runnableInformer(0);
        serviceCidrs = client.resources(ServiceCIDR.class).runnableInformer(0);
        // the indexes a review reads (docs/admission.md, "Cost of a review"): keys computed once per object version
        slbs.addIndexers(Map.of(ViewKeys.BY_VIP, ViewKeys::vip, ViewKeys.BY_NETWORK, ViewKeys::network));
        networks.addIndexers(Map.of(ViewKeys.BY_POOL, ViewKeys::pools, ViewKeys.BY_DEFAULT_MARK, ViewKeys::defaultMark));
        arps.addIndexers(Map.of(ViewKeys.BY_ADDRESS, ViewKeys::arpAddress));
        // ranges need a sorted structure an informer indexer (exact keys) cannot give: fed by the informers' events
        pools.addEventHandler(RangeFeed.of(poolEntries, ViewKeys::poolEntries));
        nodes.addEventHandler(RangeFeed.of(nodeIps, ViewKeys::internalIps));
        nodes.addEventHandler(RangeFeed.of(learnt, "Node/", ViewKeys::podCidrs));
        serviceCidrs.addEventHandler(RangeFeed.of(learnt, "ServiceCIDR/", ViewKeys::serviceCidrs));
        peers = client.resources(BGPPeer.class).runnableInformer(0);
        peers.addIndexers(Map.of(
                BY_ADDRESS, p -> p.getSpec() == null || p.getSpec().getPeerAddress() == null ? List.of()
                        : List.of(p.getSpec().getPeerAddress()),
                BY_BFD_PROFILE, p -> p.getSpec() == null || p.getSpec().getBfdProfile() == null ? List.of()
                        : List.of(p.getSpec().getBfdProfile())));
        networks.addIndexers(Map.of(BY_PEER, BgpNames::peersOf));
        bfdProfiles = client.resources(BFDProfile.class).runnableInformer(0);
        secrets = client.secrets().inNamespace(JuneauConstants.SYSTEM_NAMESPACE).runnableInformer(0);
        secrets.itemStore(new KeysOnlyStore());
    }

    /** Starts the informers without waiting for them: {@link #synced()} says when the view can be trusted. */
    public static InformerClusterView start(KubernetesClient client) {
        return start(client, MissLookup.api(client));
    }

    /**
     * As {@link #start(KubernetesClient)}, reading cache misses with the given lookup. An unreachable API server is
     * an expected outage, at start as later: every informer retries with the client's backoff (fabric8's default
     * gives up for good when the first list fails), and {@link ConnectionLog} says so in one line per change.
     */
    public static InformerClusterView start(KubernetesClient client, MissLookup missLookup) {
        InformerClusterView view = new InformerClusterView(client, missLookup);
        for (SharedIndexInformer<?> informer : view.allInformers()) {
            String kind = informer.getApiTypeClass().getSimpleName();
            informer.exceptionHandler((started, failure) -> {
                if (view.closed) {
                    return false; // a request cut short by our own close: nothing to say
                }
                if (informer == view.serviceCidrs && notServed(failure)) {
                    view.serviceCidrsServed = false;
                    LOG.info("cluster view: the API server does not serve networking.k8s.io/v1 ServiceCIDRs "
                            + "(Kubernetes before 1.33); --reserved-cidr and the Nodes' podCIDRs keep cluster "
                            + "addresses out of pools");
                    return false;
                }
                view.log.failed(kind, failure);
                return true;
            });
            informer.start();
            informer.stopped().whenComplete((ignored, failure) -> {
                if (!view.closed && (informer != view.serviceCidrs || view.serviceCidrsServed)) {
                    LOG.error("cluster view: the {} informer stopped for good ({}); /healthz fails so that the "
                            + "webhook is restarted", kind, failure == null ? "no reason given"
                            : ConnectionLog.reason(failure));
                }
            });
        }
        view.log.watch(view::synced, view::watching);
        return view;
    }

    /** A view whose caches never fill: every named lookup is a miss (tests of the read-through). */
    static InformerClusterView unstarted(KubernetesClient client) {
        return new InformerClusterView(client, MissLookup.api(client));
    }

    private List<SharedIndexInformer<?>> allInformers() {
        return List.of(pools, networks, slbs, arps, nodes, serviceCidrs, peers, bfdProfiles, secrets);
    }

    /** The informers the view depends on: all but the ServiceCIDR one where the API server does not serve it. */
    private List<SharedIndexInformer<?>> informers() {
        return serviceCidrsServed ? allInformers()
                : List.of(pools, networks, slbs, arps, nodes, peers, bfdProfiles, secrets);
    }

    private static boolean notServed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof io.fabric8.kubernetes.client.KubernetesClientException k && k.getCode() == 404) {
                return true;
            }
        }
        return false;
    }

    /** True once every informer has completed its first list. */
    public boolean synced() {
        return informers().stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /** The informer of one kind (tests stop one to see liveness fail). */
    SharedIndexInformer<?> informer(String kind) {
        return informers().stream().filter(i -> i.getApiTypeClass().getSimpleName().equals(kind)).findFirst()
                .orElseThrow();
    }

    /** True while every informer has a live watch (false during an outage, while the caches go stale). */
    boolean watching() {
        return informers().stream().allMatch(SharedIndexInformer::isWatching);
    }

    /**
     * The kinds whose informer stopped for good while the view is open: the webhook can only recover by a restart,
     * so liveness fails with these names. Empty while informers run or retry.
     */
    public List<String> stopped() {
        if (closed) {
            return List.of();
        }
        return informers().stream().filter(i -> i.stopped().toCompletableFuture().isDone())
                .map(i -> i.getApiTypeClass().getSimpleName()).toList();
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
        return pools.getStore().list();
    }

    @Override
    public Optional<ExternalNetwork> externalNetwork(String name) {
        return byKey(networks, name).or(() -> live(ExternalNetwork.class, name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworks() {
        return networks.getStore().list();
    }

    @Override
    public Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name) {
        return namespace == null || name == null ? Optional.empty() : byKey(slbs, namespace + "/" + name);
    }

    @Override
    public Collection<ServiceLoadBalancer> serviceLoadBalancers() {
        return slbs.getStore().list();
    }

    @Override
    public Collection<ARPAdvertisement> arpAdvertisements() {
        return arps.getStore().list();
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
            LOG.debug("cluster view: reading {} after a cache miss failed: {}", name, e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public Collection<Node> nodes() {
        return nodes.getStore().list();
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address) {
        return slbs.getIndexer().byIndex(ViewKeys.BY_VIP, ViewKeys.address(address));
    }

    @Override
    public List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network) {
        return network == null ? List.of() : slbs.getIndexer().byIndex(ViewKeys.BY_NETWORK, network);
    }

    @Override
    public List<ExternalNetwork> defaultNetworks() {
        return networks.getIndexer().byIndex(ViewKeys.BY_DEFAULT_MARK, DefaultNetwork.TRUE);
    }

    @Override
    public List<ExternalNetwork> externalNetworksListingPool(String pool) {
        return pool == null ? List.of() : networks.getIndexer().byIndex(ViewKeys.BY_POOL, pool);
    }

    @Override
    public List<ARPAdvertisement> arpAdvertisementsAt(long address) {
        return arps.getIndexer().byIndex(ViewKeys.BY_ADDRESS, ViewKeys.address(address));
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
    public List<String> names(NamedKind kind) {
        SharedIndexInformer<?> informer = switch (kind) {
            case ADDRESS_POOL -> pools;
            case EXTERNAL_NETWORK -> networks;
            case NODE -> nodes;
        };
        return informer.getStore().listKeys().stream().sorted().toList();
    }

    @Override
    public Optional<BGPPeer> bgpPeer(String name) {
        return byKey(peers, name).or(() -> live(BGPPeer.class, name));
    }

    @Override
    public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
        return peerAddress == null ? List.of() : peers.getIndexer().byIndex(BY_ADDRESS, peerAddress);
    }

    @Override
    public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
        return profile == null ? List.of() : peers.getIndexer().byIndex(BY_BFD_PROFILE, profile);
    }

    @Override
    public Optional<BFDProfile> bfdProfile(String name) {
        return byKey(bfdProfiles, name).or(() -> live(BFDProfile.class, name));
    }

    @Override
    public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
        return peer == null ? List.of() : networks.getIndexer().byIndex(BY_PEER, peer);
    }

    /*
     * A Secret and the BGPPeer naming it, applied in one kubectl apply, race like a pool and its network; a miss is
     * read once from the API server, and only its keys are kept.
     */
    @Override
    public Optional<Set<String>> systemSecretKeys(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.empty();
        }
        Secret cached = secrets.getStore().getByKey(JuneauConstants.SYSTEM_NAMESPACE + "/" + name);
        if (cached != null) {
            return Optional.of(Set.copyOf(Secrets.keys(cached)));
        }
        try {
            Secret live = missLookup.secret(JuneauConstants.SYSTEM_NAMESPACE, name);
            return live == null ? Optional.empty() : Optional.of(Set.copyOf(Secrets.keys(live)));
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            LOG.debug("cluster view: reading Secret {} after a cache miss failed: {}", name, e.getMessage());
            return Optional.empty();
        }
    }

    /** The Secret cache: each Secret is kept with its keys and empty values, so no password stays in memory. */
    private static final class KeysOnlyStore extends BasicItemStore<Secret> {
        KeysOnlyStore() {
            super(Cache::metaNamespaceKeyFunc);
        }

        @Override
        public Secret put(String key, Secret secret) {
            return super.put(key, Secrets.keysOnly(secret));
        }
    }

    private static <T extends HasMetadata> Optional<T> byKey(SharedIndexInformer<T> informer, String key) {
        return key == null ? Optional.empty() : Optional.ofNullable(informer.getStore().getByKey(key));
    }

    @Override
    public void close() {
        closed = true;
        log.close();
        allInformers().forEach(SharedIndexInformer::stop);
    }
}
