package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.cache.RecentWrites;
import me.loutres.juneau.runtime.BoundedCalls;
import me.loutres.juneau.runtime.Term;

/**
 * Every write the controller makes, in one place: each checks the leadership term first — its time, not a flag: a
 * term expires by itself at its renew deadline — and is bounded by the time left in it ({@link BoundedCalls}). Each
 * is safe on a real API server — creates, updates (PUT, statuses through the status subresource) carrying the resourceVersion
 * they were read at, and JSON merge patches of single scalar fields that carry it too — so a write based on a
 * stale read fails with 409 and the key is retried from fresh data. Nothing uses server-side apply or strategic
 * merge patch; no merge patch touches a list (RFC 7386 replaces a whole list, which could undo a concurrent
 * writer's entries).
 */
public final class KubeWriter {
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private final KubernetesClient client;
    private final RecentWrites<ServiceLoadBalancer> slbs;
    private final RecentWrites<ARPAdvertisement> arps;
    private final RecentWrites<Service> services;
    private final RecentWrites<AddressPool> pools;

    public KubeWriter(KubernetesClient client, ClusterCache cache) {
        this.client = client;
        // the overlay lives in the cache, which reads it; the writer only tells it what was written
        this.slbs = cache.recentServiceLoadBalancers();
        this.arps = cache.recentArpAdvertisements();
        this.services = cache.recentServices();
        this.pools = cache.recentPools();
    }

    /** Forgets what was written for a key whose write conflicted: the next read comes from the informer. */
    public void conflicted(ServiceKey key) {
        slbs.forget(key.toString());
        services.forget(key.toString());
        arps.forget(me.loutres.juneau.api.JuneauConstants.arpAdvertisementName(key.namespace(), key.name()));
    }

    ServiceLoadBalancer createServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        return tracked(slbs, ServiceKey.of(slb).toString(), () -> BoundedCalls.within(client, term,
                c -> c.resources(ServiceLoadBalancer.class).inNamespace(slb.getMetadata().getNamespace())
                        .resource(slb).create()));
    }

    /** Replaces metadata and spec; {@code slb} carries the resourceVersion it was read at. */
    ServiceLoadBalancer updateServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        // removing the last finalizer of an object being deleted deletes it: kube-apiserver answers 200 with the
        // final object, which RecentWrites does not keep
        return tracked(slbs, ServiceKey.of(slb).toString(), () -> BoundedCalls.within(client, term,
                c -> c.resources(ServiceLoadBalancer.class).inNamespace(slb.getMetadata().getNamespace())
                        .resource(slb).update()));
    }

    void deleteServiceLoadBalancer(Term term, ServiceLoadBalancer slb) {
        term.ensureActive();
        slbs.forget(ServiceKey.of(slb).toString());
        BoundedCalls.within(client, term,
                c -> c.resources(ServiceLoadBalancer.class).inNamespace(slb.getMetadata().getNamespace())
                .withName(slb.getMetadata().getName()).delete());
    }

    /** Replaces the status through the status subresource, at the resourceVersion {@code slb} was read at. */
    ServiceLoadBalancer replaceServiceLoadBalancerStatus(Term term, ServiceLoadBalancer slb,
            ServiceLoadBalancerStatus next) {
        term.ensureActive();
        ServiceLoadBalancer copy = withStatus(slb, next);
        return tracked(slbs, ServiceKey.of(slb).toString(), () -> BoundedCalls.within(client, term,
                c -> c.resources(ServiceLoadBalancer.class).inNamespace(slb.getMetadata().getNamespace())
                        .resource(copy).updateStatus()));
    }

    ARPAdvertisement createArpAdvertisement(Term term, ARPAdvertisement arp) {
        term.ensureActive();
        return tracked(arps, arp.getMetadata().getName(), () -> BoundedCalls.within(client, term,
                c -> c.resources(ARPAdvertisement.class).resource(arp).create()));
    }

    /** Moves the advertisement to another node in place: only {@code spec.nodeName} changes, the uid stays. */
    ARPAdvertisement moveArpAdvertisement(Term term, ARPAdvertisement arp, String node) {
        term.ensureActive();
        // the node label follows spec.nodeName on every write, so each node agent watches only its own (docs/api-reference.md)
        String patch = "{\"metadata\":{\"resourceVersion\":" + json(arp.getMetadata().getResourceVersion())
                + ",\"labels\":{" + json(JuneauConstants.LABEL_NODE) + ":" + json(node) + "}},\"spec\":{\"nodeName\":"
                + json(node) + "}}";
        // resource(arp): fabric8 sends the patch as is; withName(..).patch would GET the object first
        return tracked(arps, arp.getMetadata().getName(), () -> BoundedCalls.within(client, term,
                c -> c.resources(ARPAdvertisement.class).resource(arp).patch(MERGE, patch)));
    }

    void deleteArpAdvertisement(Term term, ARPAdvertisement arp) {
        term.ensureActive();
        arps.forget(arp.getMetadata().getName());
        BoundedCalls.within(client, term,
                c -> c.resources(ARPAdvertisement.class).withName(arp.getMetadata().getName()).delete());
    }

    /** Sets {@code status.loadBalancer.ingress} of the Service (empty clears it), at the version read. */
    Service replaceServiceIngress(Term term, Service svc, List<LoadBalancerIngress> ingress) {
        term.ensureActive();
        Service copy = withIngress(svc, ingress == null || ingress.isEmpty() ? null : ingress);
        return tracked(services, ServiceKey.of(svc).toString(), () -> BoundedCalls.within(client, term,
                c -> c.services().inNamespace(svc.getMetadata().getNamespace()).resource(copy).updateStatus()));
    }

    AddressPool replacePoolStatus(Term term, AddressPool pool, AddressPoolStatus next) {
        term.ensureActive();
        AddressPool copy = copy(pool, AddressPool.class);
        copy.setStatus(next);
        return tracked(pools, pool.getMetadata().getName(), () -> BoundedCalls.within(client, term,
                c -> c.resources(AddressPool.class).resource(copy).updateStatus()));
    }

    Event createEvent(Term term, Event event) {
        term.ensureActive();
        return BoundedCalls.within(client, term,
                c -> c.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create());
    }

    /**
     * The same event was recorded before (same name): only its lastTimestamp moves, so {@code kubectl describe}
     * shows it happened again. Its count is left alone: reading it would need one more permission for little.
     */
    void repeatEvent(Term term, String namespace, String name, String now) {
        term.ensureActive();
        Event target = new io.fabric8.kubernetes.api.model.EventBuilder().withNewMetadata().withNamespace(namespace)
                .withName(name).endMetadata().build();
        BoundedCalls.within(client, term,
                c -> c.v1().events().inNamespace(namespace).resource(target)
                        .patch(MERGE, "{\"lastTimestamp\":" + json(now) + "}"));
    }

    /**
     * Runs a write of {@code key} with {@code recent} told before it is sent and after it is answered (or failed), so
     * its watch event is known for the echo it is, whichever of the two arrives first.
     */
    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> T tracked(RecentWrites<T> recent,
            String key, java.util.function.Supplier<T> write) {
        recent.writing(key);
        T written = null;
        try {
            written = write.get();
            return written;
        } finally {
            recent.wrote(key, written);
        }
    }

    /** A deep copy: objects of the informer cache are shared and never modified in place. */
    static <T> T copy(T o, Class<T> type) {
        return SERIALIZATION.convertValue(o, type);
    }

    /*
     * The status writes of every new Service build their body from the object read, not from a deep copy of it: a
     * new top-level object sharing the read one's metadata and spec, which the write only serializes (fabric8 copies
     * an object only to set a missing resourceVersion, and every write here carries one), with the new status. A
     * deep copy was a serialization and a parse of the whole object per write.
     */

    /** {@code slb} with {@code status} instead of its own; {@code slb} is left as it is. */
    static ServiceLoadBalancer withStatus(ServiceLoadBalancer slb, ServiceLoadBalancerStatus status) {
        ServiceLoadBalancer out = new ServiceLoadBalancer();
        out.setApiVersion(slb.getApiVersion());
        out.setKind(slb.getKind());
        out.setMetadata(slb.getMetadata());
        out.setSpec(slb.getSpec());
        out.setStatus(status);
        return out;
    }

    /**
     * {@code svc} with {@code status.loadBalancer.ingress} set to {@code ingress} (null clears it), the rest of its
     * status kept; {@code svc} is left as it is.
     */
    static Service withIngress(Service svc, List<LoadBalancerIngress> ingress) {
        io.fabric8.kubernetes.api.model.ServiceStatus read = svc.getStatus();
        io.fabric8.kubernetes.api.model.LoadBalancerStatus readLb = read == null ? null : read.getLoadBalancer();
        io.fabric8.kubernetes.api.model.LoadBalancerStatus lb = new io.fabric8.kubernetes.api.model.LoadBalancerStatus(
                ingress);
        io.fabric8.kubernetes.api.model.ServiceStatus status = new io.fabric8.kubernetes.api.model.ServiceStatus(
                read == null ? null : read.getConditions(), lb);
        if (readLb != null) {
            readLb.getAdditionalProperties().forEach(lb::setAdditionalProperty);
        }
        if (read != null) {
            read.getAdditionalProperties().forEach(status::setAdditionalProperty);
        }
        Service out = new Service(svc.getApiVersion(), svc.getKind(), svc.getMetadata(), svc.getSpec(), status);
        svc.getAdditionalProperties().forEach(out::setAdditionalProperty);
        return out;
    }

    private static String json(String s) {
        return SERIALIZATION.asJson(s);
    }
}
