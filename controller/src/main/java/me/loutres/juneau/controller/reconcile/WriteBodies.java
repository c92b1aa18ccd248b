package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceStatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/**
 * The bodies {@link KubeWriter} sends that are not an object the plan built: a status on the object read, a merge
 * patch's JSON strings. Objects of the informer cache are shared and never modified in place, so each body is a new
 * object; the object read is left as it is.
 *
 * <p>The status writes of every new Service build their body from the object read, not from a deep copy of it: a
 * new top-level object sharing the read one's metadata and spec, which the write only serializes (fabric8 copies an
 * object only to set a missing resourceVersion, and every write here carries one), with the new status. A deep
 * copy was a serialization and a parse of the whole object per write.
 */
final class WriteBodies {
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private WriteBodies() {
    }

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
     * {@code svc} with {@code status.loadBalancer.ingress} set to {@code ingress} (null or empty clears it), the rest
     * of its status kept; {@code svc} is left as it is.
     */
    static Service withIngress(Service svc, List<LoadBalancerIngress> ingress) {
        ServiceStatus read = svc.getStatus();
        LoadBalancerStatus readLb = read == null ? null : read.getLoadBalancer();
        LoadBalancerStatus lb = new LoadBalancerStatus(ingress == null || ingress.isEmpty() ? null : ingress);
        ServiceStatus status = new ServiceStatus(read == null ? null : read.getConditions(), lb);
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

    /** A copy of {@code pool} with {@code status}: pools are few and rarely written, a deep copy is cheap there. */
    static AddressPool withStatus(AddressPool pool, AddressPoolStatus status) {
        AddressPool copy = copy(pool, AddressPool.class);
        copy.setStatus(status);
        return copy;
    }

    /** A deep copy. */
    static <T> T copy(T o, Class<T> type) {
        return SERIALIZATION.convertValue(o, type);
    }

    /** {@code s} as a JSON string literal, for the merge patches. */
    static String json(String s) {
        return SERIALIZATION.asJson(s);
    }
}
