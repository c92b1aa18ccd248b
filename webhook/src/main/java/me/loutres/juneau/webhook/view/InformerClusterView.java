package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
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
import me.loutres.juneau.view.BgpNames;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.Secrets;
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
    private final SharedIndexInformer<BGPPeer> peers;
    private final SharedIndexInformer<BFDProfile> bfdProfiles;
    private final SharedIndexInformer<Secret> secrets;
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
        for (SharedIndexInformer<?> informer : view.informers()) {
            String kind = informer.getApiTypeClass().getSimpleName();
            informer.exceptionHandler((started, failure) -> {
                if (view.closed) {
                    return false; // a request cut short by our own close: nothing to say
                }
                view.log.failed(kind, failure);
                return true;
            });
            informer.start();
            informer.stopped().whenComplete((ignored, failure) -> {
                if (!view.closed) {
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

    private List<SharedIndexInformer<?>> informers() {
        return List.of(pools, networks, slbs, arps, nodes, peers, bfdProfiles, secrets);
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

    private static <T extends HasMetadata> Optional<T> byKey(SharedIndexInformer<T> informer, String key) {
        return key == null ? Optional.empty() : Optional.ofNullable(informer.getStore().getByKey(key));
    }

    @Override
    public void close() {
        closed = true;
        log.close();
        informers().forEach(SharedIndexInformer::stop);
    }
}
