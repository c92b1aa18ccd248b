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
    LeanStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
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
