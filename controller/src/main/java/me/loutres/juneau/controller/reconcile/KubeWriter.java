package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.RecentWrites;
import me.loutres.juneau.controller.leader.Term;

/**
 * Every write the controller makes, in one place: each checks the leadership term first and is safe on a real
 * API server — creates, updates carrying the resourceVersion read, and JSON merge patches that carry it too, so
 * a write based on a stale read fails with 409 and the key is retried from fresh data. Nothing uses server-side
 * apply or strategic merge patch.
 */
public final class KubeWriter {
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private final KubernetesClient client;
    final RecentWrites<ServiceLoadBalancer> slbs = new RecentWrites<>();
    final RecentWrites<ARPAdvertisement> arps = new RecentWrites<>();
    final RecentWrites<Service> services = new RecentWrites<>();
    final RecentWrites<AddressPool> pools = new RecentWrites<>();

    public KubeWriter(KubernetesClient client) {
        this.client = client;
    }

    public RecentWrites<ServiceLoadBalancer> recentServiceLoadBalancers() {
        return slbs;
    }

    public RecentWrites<ARPAdvertisement> recentArpAdvertisements() {
        return arps;
    }

    public RecentWrites<Service> recentServices() {
        return services;
    }

    public RecentWrites<AddressPool> recentPools() {
        return pools;
    }

    /** Forgets what was written for a key whose write conflicted: the next read comes from the informer. */
    public void conflicted(ServiceKey key) {
        slbs.forget(key.toString());
        services.forget(key.toString());
        arps.forget(me.loutres.juneau.api.JuneauConstants.arpAdvertisementName(key.namespace(), key.name()));
    }

    ServiceLoadBalancer createServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        ServiceLoadBalancer created = client.resources(ServiceLoadBalancer.class)
                .inNamespace(slb.getMetadata().getNamespace()).resource(slb).create();
        slbs.wrote(ServiceKey.of(created).toString(), created);
        return created;
    }

    /** Replaces metadata and spec; {@code slb} carries the resourceVersion it was read at. */
    ServiceLoadBalancer updateServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        ServiceLoadBalancer updated = client.resources(ServiceLoadBalancer.class)
                .inNamespace(slb.getMetadata().getNamespace()).resource(slb).update();
        slbs.wrote(ServiceKey.of(updated).toString(), updated);
        return updated;
    }

    void deleteServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        client.resources(ServiceLoadBalancer.class).inNamespace(slb.getMetadata().getNamespace())
                .withName(slb.getMetadata().getName()).delete();
    }

    ServiceLoadBalancer patchServiceLoadBalancerStatus(Term term, ServiceLoadBalancer slb,
            ServiceLoadBalancerStatus next) {
        term.ensureActive();
        String patch = MergePatch.guarded(slb.getMetadata().getResourceVersion(), "status", slb.getStatus(), next);
        ServiceLoadBalancer patched = client.resources(ServiceLoadBalancer.class)
                .inNamespace(slb.getMetadata().getNamespace()).withName(slb.getMetadata().getName())
                .subresource("status").patch(MERGE, patch);
        slbs.wrote(ServiceKey.of(patched).toString(), patched);
        return patched;
    }

    ARPAdvertisement createArpAdvertisement(Term term, ARPAdvertisement arp) {
        term.ensureActive();
        ARPAdvertisement created = client.resources(ARPAdvertisement.class).resource(arp).create();
        arps.wrote(created.getMetadata().getName(), created);
        return created;
    }

    /** Moves the advertisement to another node in place: only {@code spec.nodeName} changes, the uid stays. */
    ARPAdvertisement moveArpAdvertisement(Term term, ARPAdvertisement arp, String node) {
        term.ensureActive();
        String patch = "{\"metadata\":{\"resourceVersion\":" + MergePatch.MAPPER.valueToTree(
                arp.getMetadata().getResourceVersion()) + "},\"spec\":{\"nodeName\":"
                + MergePatch.MAPPER.valueToTree(node) + "}}";
        ARPAdvertisement moved = client.resources(ARPAdvertisement.class).withName(arp.getMetadata().getName())
                .patch(MERGE, patch);
        arps.wrote(moved.getMetadata().getName(), moved);
        return moved;
    }

    void deleteArpAdvertisement(Term term, ARPAdvertisement arp) {
        term.ensureActive();
        arps.forget(arp.getMetadata().getName());
        client.resources(ARPAdvertisement.class).withName(arp.getMetadata().getName()).delete();
    }

    /** Sets {@code status.loadBalancer.ingress} of the Service (null or empty clears it). */
    Service patchServiceIngress(Term term, Service svc, List<LoadBalancerIngress> ingress) {
        term.ensureActive();
        Map<String, Object> lb = new java.util.LinkedHashMap<>();
        lb.put("ingress", ingress == null || ingress.isEmpty() ? null : ingress);
        String patch = "{\"metadata\":{\"resourceVersion\":"
                + MergePatch.MAPPER.valueToTree(svc.getMetadata().getResourceVersion()) + "},\"status\":{\"loadBalancer\":"
                + MergePatch.MAPPER.valueToTree(lb) + "}}";
        Service patched = client.services().inNamespace(svc.getMetadata().getNamespace())
                .withName(svc.getMetadata().getName()).subresource("status").patch(MERGE, patch);
        services.wrote(ServiceKey.of(patched).toString(), patched);
        return patched;
    }

    AddressPool patchPoolStatus(Term term, AddressPool pool, AddressPoolStatus next) {
        term.ensureActive();
        String patch = MergePatch.guarded(pool.getMetadata().getResourceVersion(), "status", pool.getStatus(), next);
        AddressPool patched = client.resources(AddressPool.class).withName(pool.getMetadata().getName())
                .subresource("status").patch(MERGE, patch);
        pools.wrote(patched.getMetadata().getName(), patched);
        return patched;
    }

    Event createEvent(Term term, Event event) {
        term.ensureActive();
        return client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
    }

    /** Bumps count and lastTimestamp of an event that already exists (the same thing happened again). */
    void repeatEvent(Term term, String namespace, String name, String now) {
        term.ensureActive();
        Event existing = client.v1().events().inNamespace(namespace).withName(name).get();
        if (existing == null) {
            return;
        }
        int count = existing.getCount() == null ? 1 : existing.getCount();
        String patch = "{\"metadata\":{\"resourceVersion\":"
                + MergePatch.MAPPER.valueToTree(existing.getMetadata().getResourceVersion()) + "},\"count\":"
                + (count + 1) + ",\"lastTimestamp\":" + MergePatch.MAPPER.valueToTree(now) + "}";
        client.v1().events().inNamespace(namespace).withName(name).patch(MERGE, patch);
    }

}
