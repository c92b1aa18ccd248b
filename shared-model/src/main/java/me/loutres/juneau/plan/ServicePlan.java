package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;

/**
 * What one reconcile of a Service must do, in this order: the ARP action, the status (when changed), the ingress
 * (when changed), the events. {@code warnings} are standing problems: the caller reports each once while it lasts.
 *
 * @param desired        the ServiceLoadBalancer as it should be (its metadata and spec objects are the input's:
 *                       read them, do not change them)
 * @param statusChanged  {@code desired.status} differs from the current one
 * @param networkType    bgp, arp, or null when unknown
 * @param arpNodeChanged the answering node differs from the one the current status names
 */
public record ServicePlan(ServiceLoadBalancer desired, boolean statusChanged, ArpAction arp,
        List<LoadBalancerIngress> ingress, boolean ingressChanged, List<PlannedEvent> events,
        List<PlannedEvent> warnings, String networkType, boolean arpNodeChanged) {

    public ServicePlan {
        ingress = List.copyOf(ingress);
        events = List.copyOf(events);
        warnings = List.copyOf(warnings);
    }

    public ServiceLoadBalancerStatus status() {
        return desired.getStatus();
    }
}
