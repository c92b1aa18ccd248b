package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.plan.NodeView;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.runtime.watch.Watched;
import me.loutres.juneau.runtime.watch.WatchedCache;
import me.loutres.juneau.view.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agent watches for BGP (docs/bgp.md): ServiceLoadBalancers, ExternalNetworks, BGPPeers, BFDProfiles and its
 * own Node, kinds of the agent's one {@link WatchedCache} whose store outlives an API server outage (the node keeps announcing what it knew), and
 * the Secrets that peers name in juneau-system, read one by one (never listed) and read again every few seconds.
 * Juneau's kinds are watched generically and read object by object ({@link KindReads}), so one malformed object is
 * skipped and named while every other object of its kind keeps working.
 */
public final class NodeSources {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSources.class);
    private static final Duration SECRET_TTL = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final String node;
    private final String namespace;
    private final String routerId;
    private final Clock clock;
    private final AgentMetrics metrics;
    // generic, then read one by one (KindReads): a typed informer that meets one malformed object fails the whole list
    private final Watched<GenericKubernetesResource> loadBalancers;
    private final Watched<GenericKubernetesResource> networks;
    private final Watched<GenericKubernetesResource> peers;
    private final Watched<GenericKubernetesResource> profiles;
    // the API server validates a Node against its schema: a typed watch cannot meet a malformed one
    private final Watched<Node> nodes;
    /** The store the ServiceLoadBalancers' informer fills now (a fresh informer gets a fresh one). */
    private final java.util.concurrent.atomic.AtomicReference<LoadBalancerStore> loadBalancerStore =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final KindReads<ExternalNetwork> networkReads =
            new KindReads<>(ExternalNetwork.class, JuneauConstants.KIND_EXTERNAL_NETWORK);
    private final KindReads<BGPPeer> peerReads = new KindReads<>(BGPPeer.class, JuneauConstants.KIND_BGP_PEER);
    private final KindReads<BFDProfile> profileReads =
            new KindReads<>(BFDProfile.class, JuneauConstants.KIND_BFD_PROFILE);
    private final Map<String, CachedSecret> secrets = new HashMap<>();
    /** Guards the KindReads (the ARP loop and the BGP thread both read); apart from the Secrets' slow reads. */
    private final Object readLock = new Object();

    private record CachedSecret(Map<String, String> data, long readAtMillis) {
    }

    /** Adds its kinds to {@code watches}, which starts, checks and stops them with the agent's other watches. */
    public NodeSources(KubernetesClient client, WatchedCache watches, String node, String namespace, String routerId,
            Clock clock, AgentMetrics metrics, Runnable onChange) {
        this.client = client;
        this.node = node;
        this.namespace = namespace;
        this.routerId = routerId;
        this.clock = clock;
        this.metrics = metrics;
        // only the ones this node announces are kept, as small records (LoadBalancerStore); the others change
        // nothing the node does, so their events do not wake the agent either
        this.loadBalancers = watches.watch("ServiceLoadBalancer",
                generic(ServiceLoadBalancer.class).inAnyNamespace()).store(() -> {
                    LoadBalancerStore s = new LoadBalancerStore(node);
                    loadBalancerStore.set(s);
                    return s;
                }).on(new LoadBalancerEvents(loadBalancerStore, onChange));
        this.networks = watches.watch("ExternalNetwork", generic(ExternalNetwork.class)).store(LeanStore::new)
                .onChange(onChange);
        this.peers = watches.watch("BGPPeer", generic(BGPPeer.class)).store(LeanStore::new).onChange(onChange);
        this.profiles = watches.watch("BFDProfile", generic(BFDProfile.class)).store(LeanStore::new)
                .onChange(onChange);
        this.nodes = watches.watch("Node", client.nodes().withField("metadata.name", node)).onChange(onChange);
        metrics.malformed(JuneauConstants.KIND_SERVICE_LOAD_BALANCER, 0); // the series exist from the start, at 0
        for (KindReads<?> r : List.of(networkReads, peerReads, profileReads)) {
            metrics.malformed(r.kind(), 0);
        }
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            generic(Class<? extends HasMetadata> type) {
        return client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(type));
    }

    /** The node's view, with {@code advertisements} (watched by the agent's ARP half) as they are. */
    public NodeView view(List<ARPAdvertisement> advertisements) {
        Node self = nodes.list().stream().filter(n -> node.equals(n.getMetadata().getName())).findFirst()
                .orElse(null);
        Map<String, String> labels = self == null || self.getMetadata().getLabels() == null ? Map.of()
                : self.getMetadata().getLabels();
        List<ServiceLoadBalancer> slbs;
        List<ExternalNetwork> networkList;
        List<BGPPeer> peerList;
        List<BFDProfile> profileList;
        synchronized (readLock) {
            slbs = loadBalancers();
            networkList = read(networkReads, networks);
            peerList = read(peerReads, peers);
            profileList = read(profileReads, profiles);
        }
        return new NodeView(node, labels, internalIp(self), routerId, advertisements, slbs, networkList, peerList,
                profileList, cachedSecrets());
    }

    /**
     * What the informer holds, readable; a version that cannot be read is said once (log line) and counted in
     * {@code juneau_agent_malformed_objects{kind}}, never thrown: one bad object must not blind the node to the rest.
     */
    private <T extends HasMetadata> List<T> read(KindReads<T> reads, Watched<GenericKubernetesResource> i) {
        for (KindReads.Unreadable u : reads.update(i.list())) {
            LOG.warn("{} {} cannot be read, {}: {}", reads.kind(), u.key().isEmpty() ? "(without a name)" : u.key(),
                    u.keptEarlier() ? "its last readable version stays in use" : "skipped", u.problem());
        }
        metrics.malformed(reads.kind(), reads.unreadable().size());
        return reads.usable();
    }

    /**
     * The ServiceLoadBalancers this node announces, as {@link LoadBalancerStore} keeps them; unreadable versions are
     * said once and counted, as for the other kinds.
     */
    private List<ServiceLoadBalancer> loadBalancers() {
        LoadBalancerStore store = loadBalancerStore.get();
        for (KindReads.Unreadable u : store.freshProblems()) {
            LOG.warn("{} {} cannot be read, {}: {}", JuneauConstants.KIND_SERVICE_LOAD_BALANCER,
                    u.key().isEmpty() ? "(without a name)" : u.key(),
                    u.keptEarlier() ? "its last readable version stays in use" : "skipped", u.problem());
        }
        metrics.malformed(JuneauConstants.KIND_SERVICE_LOAD_BALANCER, store.unreadable().size());
        return store.usable();
    }

    /**
     * The BGPPeers that exist but of which nothing can be read (no readable version was ever seen): whether they
     * apply to this node is unknown, so their BGPSessions are left as they are.
     */
    public java.util.Set<String> unknownPeers() {
        synchronized (readLock) {
            return new TreeSet<>(peerReads.unknown());
        }
    }

    private static String internalIp(Node n) {
        if (n == null || n.getStatus() == null || n.getStatus().getAddresses() == null) {
            return null;
        }
        return n.getStatus().getAddresses().stream().filter(a -> "InternalIP".equals(a.getType()))
                .map(NodeAddress::getAddress).filter(me.loutres.juneau.ip.Ipv4::isValid).findFirst().orElse(null);
    }

    private synchronized Map<String, Map<String, String>> cachedSecrets() {
        Map<String, Map<String, String>> out = new HashMap<>();
        secrets.forEach((name, cached) -> {
            if (cached.data() != null) {
                out.put(name, cached.data());
            }
        });
        return out;
    }

    /**
     * Reads the Secrets the peers name again when older than {@link #SECRET_TTL} (a failed read keeps the last); off
     * the ARP loop, since each is a call to the API server. True when what is known changed.
     */
    public boolean refreshSecrets() {
        Map<String, Map<String, String>> before = cachedSecrets();
        List<BGPPeer> peerList;
        synchronized (readLock) {
            peerList = read(peerReads, peers);
        }
        secrets(peerList);
        return !before.equals(cachedSecrets());
    }

    private synchronized void secrets(List<BGPPeer> peerList) {
        TreeSet<String> named = new TreeSet<>();
        for (BGPPeer p : peerList) {
            if (p.getSpec() != null && p.getSpec().getPasswordSecret() != null
                    && p.getSpec().getPasswordSecret().getName() != null) {
                named.add(p.getSpec().getPasswordSecret().getName());
            }
        }
        secrets.keySet().retainAll(named);
        long now = clock.millis();
        for (String name : named) {
            CachedSecret cached = secrets.get(name);
            if (cached == null || now - cached.readAtMillis() > SECRET_TTL.toMillis()) {
                try {
                    Secret s = client.secrets().inNamespace(namespace).withName(name).get();
                    cached = new CachedSecret(s == null ? null : decode(s), now);
                    secrets.put(name, cached);
                } catch (KubernetesClientException e) {
                    LOG.debug("Secret {}/{} not read: {}", namespace, name, e.getMessage());
                }
            }
        }
    }

    /** Each value as base64 of its bytes: the planner judges the bytes themselves (Md5PasswordRule), not a decoding. */
    private static Map<String, String> decode(Secret s) {
        Map<String, String> out = new HashMap<>();
        Secrets.values(s).forEach((k, v) -> out.put(k, Base64.getEncoder().encodeToString(v)));
        return out;
    }
}
