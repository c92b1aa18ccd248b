package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Service;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.cache.ClusterCache;

/**
 * The kinds the controller writes, each with the overlay of the cache that reads it back (the overlay lives in the
 * cache, which reads it; the writer only tells it what was written). Events are not tracked: nothing reads them.
 */
record WrittenKinds(WrittenKind<ServiceLoadBalancer> slbs, WrittenKind<ARPAdvertisement> arps,
        WrittenKind<Service> services, WrittenKind<AddressPool> pools, WrittenKind<Event> events) {

    static WrittenKinds of(ClusterCache cache) {
        return new WrittenKinds(
                WrittenKind.namespaced(ServiceLoadBalancer.class, cache.recentServiceLoadBalancers()),
                WrittenKind.clusterScoped(ARPAdvertisement.class, cache.recentArpAdvertisements()),
                WrittenKind.namespaced(Service.class, cache.recentServices()),
                WrittenKind.clusterScoped(AddressPool.class, cache.recentPools()),
                WrittenKind.untracked(Event.class));
    }
}
