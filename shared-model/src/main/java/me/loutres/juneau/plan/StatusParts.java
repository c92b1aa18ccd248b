package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.status.StatusInput;

/**
 * A status plan before the status is computed ({@link ServicePlanner#parts}): what was decided (the ARP action, the
 * warnings) and every input of the status but a refused write, which only the API server's answer can add.
 *
 * @param slb            the ServiceLoadBalancer as planned (its status is the previous one)
 * @param network        its ExternalNetwork, for the events
 * @param input          the status inputs, with the name-conflict problem if any
 * @param arp            the ARP action
 * @param warnings       standing problems found (ports, name conflict)
 * @param currentIngress the Service's ingress as read
 * @param now            the time conditions that change get, RFC 3339
 */
record StatusParts(ServiceLoadBalancer slb, String network, StatusInput input, ArpAction arp,
        List<PlannedEvent> warnings, List<LoadBalancerIngress> currentIngress, String now) {

    StatusParts {
        warnings = List.copyOf(warnings);
        // the read as it is: a damaged read's null entry is compared, never copied away
        currentIngress = java.util.Collections.unmodifiableList(currentIngress);
    }
}
