package me.loutres.juneau.agent.plan;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;

/**
 * Whether a VIP is about to be announced for the first time, so that its owner probes it first (RFC 5227;
 * docs/troubleshooting.md, "My VIP conflicts with another device"), and which MACs are the cluster's own. Pure.
 *
 * <p>The ARPAdvertisement's status is the record: a node that answered the VIP wrote {@code announcedAt} (and
 * {@code Announced=True}) there, and a failover changes only {@code spec.nodeName} in place, so the new owner reads
 * the old owner's status and does not probe (a failover must stay fast). A new advertisement (a fresh allocation) has
 * no status; one whose last report was a problem without {@code announcedAt} (an earlier conflict, a missing
 * interface) was never announced either. Both are probed.
 *
 * <p>The cluster's MACs are those the statuses name: the node that last answered the VIP. Its agent may still answer
 * during a hand-over, and that answer is no conflict. Other nodes' MACs are not known to the agent (it watches only
 * its own advertisements): a node that answers a VIP without ever having reported it could be taken for a foreign
 * device, which costs a move to another address, never a hijack.
 */
public final class FirstAnnouncement {
    private FirstAnnouncement() {
    }

    /** True when no node has ever announced the advertisement's VIP (as far as its status tells). */
    public static boolean mustProbe(ARPAdvertisement a) {
        ARPAdvertisementStatus s = a.getStatus();
        if (s == null) {
            return true;
        }
        if (s.getAnnouncedAt() != null && !s.getAnnouncedAt().isEmpty()) {
            return false;
        }
        List<Condition> conditions = s.getConditions();
        return conditions == null || conditions.stream().noneMatch(c -> JuneauConstants.CONDITION_ANNOUNCED
                .equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The MACs the advertisements' statuses name (their announcing nodes'); unparsable ones are left out. */
    public static Set<MacAddress> clusterMacs(List<ARPAdvertisement> list) {
        Set<MacAddress> out = new HashSet<>();
        for (ARPAdvertisement a : list) {
            String mac = a.getStatus() == null ? null : a.getStatus().getMacAddress();
            if (mac != null) {
                try {
                    out.add(MacAddress.parse(mac));
                } catch (IllegalArgumentException e) {
                    // written by hand or by a broken agent: not a MAC this node can trust
                }
            }
        }
        return Set.copyOf(out);
    }
}
