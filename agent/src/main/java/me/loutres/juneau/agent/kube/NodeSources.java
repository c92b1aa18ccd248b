package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import me.loutres.juneau.agent.plan.NodeView;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agent watches for BGP (docs/bgp.md): ServiceLoadBalancers, ExternalNetworks, BGPPeers, BFDProfiles and its
 * own Node, each an informer whose cache outlives an API server outage (the node keeps announcing what it knew), and
 * the Secrets that peers name in juneau-system, read one by one (never listed) and read again every few seconds.
 */
public final class NodeSources implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSources.class);
    private static final Duration SECRET_TTL = Duration.ofSeconds(10);

    private final KubernetesClient client;
    private final String node;
    private final String namespace;
    private final String routerId;
    private final Clock clock;
    private final SharedIndexInformer<ServiceLoadBalancer> loadBalancers;
    private final SharedIndexInformer<ExternalNetwork> networks;
    private final SharedIndexInformer<BGPPeer> peers;
    private final SharedIndexInformer<BFDProfile> profiles;
    private final SharedIndexInformer<Node> nodes;
    private final Map<String, CachedSecret> secrets = new HashMap<>();

    private record CachedSecret(Map<String, String> data, long readAtMillis) {
    }

    public NodeSources(KubernetesClient client, String node, String namespace, String routerId, Clock clock,
            Runnable onChange) {
        this.client = client;
        this.node = node;
        this.namespace = namespace;
        this.routerId = routerId;
        this.clock = clock;
        this.loadBalancers = watch(client.resources(ServiceLoadBalancer.class).inAnyNamespace().runnableInformer(0),
                "ServiceLoadBalancer", onChange);
        this.networks = watch(client.resources(ExternalNetwork.class).runnableInformer(0), "ExternalNetwork",
                onChange);
        this.peers = watch(client.resources(BGPPeer.class).runnableInformer(0), "BGPPeer", onChange);
        this.profiles = watch(client.resources(BFDProfile.class).runnableInformer(0), "BFDProfile", onChange);
        this.nodes = watch(client.nodes().withField("metadata.name", node).runnableInformer(0), "Node", onChange);
    }

    private static <T extends HasMetadata> SharedIndexInformer<T> watch(SharedIndexInformer<T> informer, String kind,
            Runnable onChange) {
        informer.exceptionHandler((started, t) -> {
            LOG.debug("{} list/watch: {}", kind, t.getMessage());
            return true; // keep retrying with the informer's backoff
        });
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onChange.run();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                onChange.run();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                onChange.run();
            }
        });
        return informer;
    }

    public void start() {
        for (SharedIndexInformer<?> i : List.of(loadBalancers, networks, peers, profiles, nodes)) {
            i.start();
        }
    }

    /** Whether every watch has listed once: before that, a BGP plan would withdraw what it has not seen yet. */
    public boolean synced() {
        return loadBalancers.hasSynced() && networks.hasSynced() && peers.hasSynced() && profiles.hasSynced()
                && nodes.hasSynced();
    }

    /** The node's view, with {@code advertisements} (watched by the agent's ARP half) as they are. */
    public NodeView view(List<ARPAdvertisement> advertisements) {
        Node self = nodes.getStore().list().stream().filter(n -> node.equals(n.getMetadata().getName())).findFirst()
                .orElse(null);
        Map<String, String> labels = self == null || self.getMetadata().getLabels() == null ? Map.of()
                : self.getMetadata().getLabels();
        List<BGPPeer> peerList = peers.getStore().list();
        return new NodeView(node, labels, internalIp(self), routerId, advertisements,
                loadBalancers.getStore().list(), networks.getStore().list(), peerList, profiles.getStore().list(),
                cachedSecrets());
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
        secrets(peers.getStore().list());
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

    private static Map<String, String> decode(Secret s) {
        Map<String, String> out = new HashMap<>();
        if (s.getData() != null) {
            s.getData().forEach((k, v) -> out.put(k, new String(Base64.getDecoder().decode(v),
                    StandardCharsets.UTF_8)));
        }
        if (s.getStringData() != null) {
            out.putAll(s.getStringData());
        }
        return out;
    }

    @Override
    public void close() {
        for (SharedIndexInformer<?> i : new ArrayList<>(List.of(loadBalancers, networks, peers, profiles, nodes))) {
            i.stop();
        }
    }

}
