package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.UnreadableObjectException;

/**
 * The agent's store of ServiceLoadBalancers (docs/design.md, "What the agent watches"): of each version the informer
 * hands over, read once the one way Juneau reads objects ({@link KubeObjects}), it keeps a {@link Lean} record of
 * what {@link me.loutres.juneau.agent.plan.NodePlanner} reads — the network, the VIP — and only when the version's
 * {@code status.advertisingNodes} names this node and it is not being deleted: the only ServiceLoadBalancers whose
 * routes this node announces. Every other one costs the node no heap once its version is read (the informer's list
 * and watch events still pass through). Issue 38: the whole objects, kept generic and typed, were 3.5 KB each, and an
 * agent with its 48 MiB heap died beside 4,250 of them.
 *
 * <p>An unreadable version (a field of the wrong type, written around admission) is kept as its problem, with the
 * last readable version of the same object (same uid) standing in, as {@link KindReads} does for the other kinds:
 * a damaged object keeps its routes, and is counted and named. Its problems are said once per version
 * ({@link #freshProblems}).
 *
 * <p>The informer calls {@link #put} and {@link #remove} from its thread, the agent reads from its own:
 * {@link #entries} is a snapshot of a concurrent map.
 */
final class LoadBalancerStore implements ItemStore<GenericKubernetesResource> {
    /**
     * What the node plan reads of one ServiceLoadBalancer this node announces.
     *
     * @param key             {@code namespace/name}, the store's key
     * @param uid             its uid (an earlier readable version stands in for an unreadable one of the same uid)
     * @param resourceVersion the version read
     * @param network         {@code spec.externalNetwork} (one shared String per network)
     * @param vip             {@code status.vip}
     */
    record Lean(String key, String uid, String resourceVersion, String network, String vip) {
        /** As the planner takes it: {@code status.advertisingNodes} holds this node only, what it looks for. */
        ServiceLoadBalancer typed(String node) {
            ServiceLoadBalancer s = new ServiceLoadBalancer();
            ObjectMeta m = new ObjectMeta();
            int slash = key.indexOf('/');
            m.setNamespace(slash < 0 ? null : key.substring(0, slash));
            m.setName(key.substring(slash + 1));
            m.setUid(uid);
            m.setResourceVersion(resourceVersion);
            s.setMetadata(m);
            ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
            spec.setExternalNetwork(network);
            s.setSpec(spec);
            ServiceLoadBalancerStatus status = new ServiceLoadBalancerStatus();
            status.setVip(vip);
            status.setAdvertisingNodes(new ArrayList<>(List.of(node)));
            s.setStatus(status);
            return s;
        }
    }

    /**
     * One stored object: a readable version this node announces ({@code problem} null), or an unreadable version
     * with its problem and the last readable one ({@code used}, null when there was none or it did not concern this
     * node).
     */
    record Entry(String uid, String resourceVersion, Lean used, String problem) {
    }

    private final String node;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** One String per network name: thousands of records name a handful of networks. */
    private final Map<String, String> networks = new ConcurrentHashMap<>();
    private final Queue<KindReads.Unreadable> fresh = new ConcurrentLinkedQueue<>();

    LoadBalancerStore(String node) {
        this.node = node;
    }

    @Override
    public String getKey(GenericKubernetesResource obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
        Entry before = entries.get(key);
        Entry next = read(key, obj, before);
        Entry previous = next == null ? entries.remove(key) : entries.put(key, next);
        return previous == null ? null : held(key, previous);
    }

    /** The entry for this version, or null when this node has nothing to keep of it. */
    private Entry read(String key, GenericKubernetesResource obj, Entry before) {
        ObjectMeta meta = obj.getMetadata();
        String uid = meta == null ? null : meta.getUid();
        String version = meta == null ? null : meta.getResourceVersion();
        ServiceLoadBalancer slb;
        try {
            // without what no reader reads (LeanStore): a damaged condition does not make the object unreadable
            slb = KubeObjects.read(KubeObjects.tree(LeanStore.lean(obj)), ServiceLoadBalancer.class,
                    JuneauConstants.KIND_SERVICE_LOAD_BALANCER);
        } catch (UnreadableObjectException e) {
            Lean earlier = before != null && before.uid() != null && before.uid().equals(uid) ? before.used() : null;
            if (before == null || !java.util.Objects.equals(version, before.resourceVersion())) {
                fresh.add(new KindReads.Unreadable(key, e.getMessage(), earlier != null));
            }
            return new Entry(uid, version, earlier, e.getMessage());
        }
        Lean lean = lean(key, slb, node);
        if (lean == null) {
            return null;
        }
        return new Entry(lean.uid(), lean.resourceVersion(), new Lean(lean.key(), lean.uid(), lean.resourceVersion(),
                lean.network() == null ? null : networks.computeIfAbsent(lean.network(), n -> n), lean.vip()), null);
    }

    /**
     * What the node keeps of a readable ServiceLoadBalancer: its record when {@code status.advertisingNodes} names
     * {@code node} and it is not being deleted, else null (the planner would skip it: nothing to announce).
     */
    static Lean lean(String key, ServiceLoadBalancer slb, String node) {
        ObjectMeta m = slb.getMetadata();
        if (m == null || m.getDeletionTimestamp() != null || slb.getSpec() == null || slb.getStatus() == null
                || slb.getStatus().getAdvertisingNodes() == null
                || !slb.getStatus().getAdvertisingNodes().contains(node)) {
            return null;
        }
        return new Lean(key, m.getUid(), m.getResourceVersion(), slb.getSpec().getExternalNetwork(),
                slb.getStatus().getVip());
    }

    @Override
    public GenericKubernetesResource remove(String key) {
        Entry previous = entries.remove(key);
        return previous == null ? null : held(key, previous);
    }

    @Override
    public Stream<String> keySet() {
        return entries.keySet().stream();
    }

    @Override
    public Stream<GenericKubernetesResource> values() {
        return entries.entrySet().stream().map(e -> held(e.getKey(), e.getValue()));
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public GenericKubernetesResource get(String key) {
        Entry e = entries.get(key);
        return e == null ? null : held(key, e);
    }

    /**
     * What the informer sees of a stored object: its name, namespace, uid and resourceVersion (it compares versions
     * and hands the old object to the handlers), made when asked and never kept.
     */
    private static GenericKubernetesResource held(String key, Entry e) {
        GenericKubernetesResource g = new GenericKubernetesResource();
        g.setApiVersion(JuneauConstants.API_VERSION);
        g.setKind(JuneauConstants.KIND_SERVICE_LOAD_BALANCER);
        ObjectMeta m = new ObjectMeta();
        int slash = key.indexOf('/');
        m.setNamespace(slash < 0 ? null : key.substring(0, slash));
        m.setName(key.substring(slash + 1));
        m.setUid(e.uid());
        m.setResourceVersion(e.resourceVersion());
        g.setMetadata(m);
        return g;
    }

    /** The stored objects by key (a snapshot). */
    Map<String, Entry> entries() {
        return new TreeMap<>(entries);
    }

    /** The ServiceLoadBalancers the plan uses: each readable one, and the last readable version of a damaged one. */
    List<ServiceLoadBalancer> usable() {
        List<ServiceLoadBalancer> out = new ArrayList<>();
        for (Entry e : entries.values()) {
            if (e.used() != null) {
                out.add(e.used().typed(node));
            }
        }
        return out;
    }

    /** The objects that cannot be read now, by key, with their problems. */
    Map<String, String> unreadable() {
        Map<String, String> out = new TreeMap<>();
        entries.forEach((k, e) -> {
            if (e.problem() != null) {
                out.put(k, e.problem());
            }
        });
        return out;
    }

    /** The problems of versions read since the last call, each said once. */
    List<KindReads.Unreadable> freshProblems() {
        List<KindReads.Unreadable> out = new ArrayList<>();
        for (KindReads.Unreadable u; (u = fresh.poll()) != null; ) {
            out.add(u);
        }
        return out;
    }
}
