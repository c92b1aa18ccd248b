package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Wakes the agent for the ServiceLoadBalancer events that can change what its node announces: one the store keeps
 * now (added, or its version changed), or one it kept before (updated away from this node, or deleted; the informer
 * hands over the old object only when the store held it). A new object that does not concern this node changes
 * nothing the node does, so the many Services of other nodes do not turn the agent's loop.
 */
final class LoadBalancerEvents implements ResourceEventHandler<GenericKubernetesResource> {
    private final AtomicReference<LoadBalancerStore> store;
    private final Runnable onChange;

    LoadBalancerEvents(AtomicReference<LoadBalancerStore> store, Runnable onChange) {
        this.store = store;
        this.onChange = onChange;
    }

    @Override
    public void onAdd(GenericKubernetesResource obj) {
        LoadBalancerStore s = store.get();
        if (s == null || s.get(Cache.metaNamespaceKeyFunc(obj)) != null) {
            onChange.run();
        }
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
        onChange.run(); // the store held the old version: the node announced it, and may no longer
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
        onChange.run();
    }
}
