package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;

/**
 * The store of the agent's generic watches (ServiceLoadBalancers, ExternalNetworks, BGPPeers, BFDProfiles), keeping of
 * each object only what the node plan can read: without {@code metadata.managedFields}, {@code annotations},
 * {@code ownerReferences} and {@code status.conditions}. A generic object costs about 1.5 times its typed form, and
 * {@link KindReads} keeps a typed copy beside it; a ServiceLoadBalancer's conditions are most of its size. Measured
 * with 10,000 ServiceLoadBalancers as the controller writes them: 3.4 KB per object typed (the informer before),
 * 6.7 KB generic plus typed, 3.5 KB lean generic plus typed (BENCHMARKS.md, "Agent and BIRD at 10,000 routes"). What
 * is dropped is never read by the agent, so a damaged condition does not make an object unreadable either.
 */
final class LeanStore extends BasicItemStore<GenericKubernetesResource> {
    private final boolean keepStatus;

    LeanStore() {
        this(false);
    }

    private LeanStore(boolean keepStatus) {
        super(Cache::metaNamespaceKeyFunc);
        this.keepStatus = keepStatus;
    }

    /**
     * For the node's ARPAdvertisements, whose status the agent writes and compares with what it would write
     * ({@link Reporter#upToDate}) and whose copy it writes back ({@link Reporter#writeStatus}): only
     * {@code metadata.managedFields} goes (an update that omits it keeps the server's), the rest is kept whole.
     */
    static LeanStore keepingStatus() {
        return new LeanStore(true);
    }

    @Override
    public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
        if (keepStatus) {
            if (obj.getMetadata() != null) {
                obj.getMetadata().setManagedFields(null);
            }
            return super.put(key, obj);
        }
        return super.put(key, lean(obj));
    }

    static GenericKubernetesResource lean(GenericKubernetesResource g) {
        ObjectMeta m = g.getMetadata();
        if (m != null) {
            m.setManagedFields(null);
            m.setAnnotations(null);
            m.setOwnerReferences(null);
        }
        if (g.getAdditionalProperties().get("status") instanceof Map<?, ?> status) {
            status.remove("conditions");
        }
        return g;
    }
}
