package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import me.loutres.juneau.status.StatusInput.Announcement;

/**
 * Condition {@code Announced} of a ServiceLoadBalancer with a VIP (docs/phases-and-conditions.md): whether the VIP
 * really reaches the network, from what the agents report. ARP: the elected node's agent set {@code Announced=True}
 * on the ARPAdvertisement. BGP: at least one advertising node has an Established session with a peer of the
 * network that sends the network's routes (its BIRD did not refuse them: {@code status.withheldNetworks}) and that
 * covers the VIP (the routes of the configuration its BIRD runs: {@code status.carriedAddresses}). Otherwise
 * the message names what each node reported, so a user knows where to look.
 */
final class Announcements {
    /** Reasons an agent writes on an ARPAdvertisement it cannot answer (docs/phases-and-conditions.md). */
    private static final java.util.Set<String> AGENT_REASONS = java.util.Set.of(
            JuneauConstants.REASON_INTERFACE_NOT_FOUND, JuneauConstants.REASON_SOCKET_ERROR,
            JuneauConstants.REASON_ADDRESS_CONFLICT);

    private Announcements() {
    }

    /** @param arpName the name of the Service's ARPAdvertisement, whether it exists yet or not */
    static Announcement of(String type, String vip, List<String> advertisingNodes, String arpNode, String arpName,
            ARPAdvertisement existing, AnnounceFacts facts) {
        if (JuneauConstants.MODE_ARP.equals(type)) {
            return arp(vip, arpNode, arpName, existing, facts);
        }
        if (JuneauConstants.MODE_BGP.equals(type)) {
            return bgp(vip, advertisingNodes, facts);
        }
        return notAnnounced("the type of its ExternalNetwork is unknown, so no agent announces VIP " + vip);
    }

    private static Announcement arp(String vip, String node, String name, ARPAdvertisement existing,
            AnnounceFacts facts) {
        if (node == null) {
            return notAnnounced("no node is elected to answer ARP for VIP " + vip + " (condition Available says why)");
        }
        ARPAdvertisementStatus st = existing == null ? null : existing.getStatus();
        boolean current = existing != null && existing.getSpec() != null && node.equals(existing.getSpec().getNodeName())
                && st != null && node.equals(st.getNode());
        Condition c = !current || st.getConditions() == null ? null : st.getConditions().stream()
                .filter(x -> x != null && JuneauConstants.CONDITION_ANNOUNCED.equals(x.getType())).findFirst()
                .orElse(null);
        if (c == null && facts.refused(node, JuneauConstants.KIND_ARP_ADVERTISEMENT) != null) {
            return notAnnounced(RefusedWrites.writesRefused(node, JuneauConstants.KIND_ARP_ADVERTISEMENT,
                    facts.refused(node, JuneauConstants.KIND_ARP_ADVERTISEMENT)));
        }
        if (c == null) {
            return notAnnounced(node + ": its agent has not reported on ARPAdvertisement " + name + " yet; check"
                    + " the juneau-agent pod on " + node + " (kubectl -n juneau-system get pods -o wide)");
        }
        if ("True".equals(c.getStatus())) {
            String via = st.getInterfaceName() == null ? "" : " on " + st.getInterfaceName()
                    + (st.getMacAddress() == null ? "" : " (" + st.getMacAddress() + ")");
            return new Announcement(true, JuneauConstants.REASON_ANNOUNCED, "node " + node + " answers ARP for VIP "
                    + vip + via);
        }
        String message = node + ": " + (c.getReason() == null ? "not announced" : c.getReason())
                + (c.getMessage() == null || c.getMessage().isBlank() ? "" : ": " + c.getMessage());
        // the agent's own reasons say what to fix on the node: the Service's condition carries them as they are
        return AGENT_REASONS.contains(c.getReason()) ? new Announcement(false, c.getReason(), message)
                : notAnnounced(message);
    }

    private static Announcement bgp(String vip, List<String> nodes, AnnounceFacts facts) {
        if (nodes.isEmpty()) {
            return notAnnounced("no node may advertise VIP " + vip + " (condition Available says why)");
        }
        Map<String, List<AnnounceFacts.SessionReport>> byNode = new TreeMap<>();
        for (AnnounceFacts.SessionReport s : facts.sessions()) {
            if (nodes.contains(s.node()) && (facts.peers().isEmpty() || facts.peers().contains(s.peer()))) {
                byNode.computeIfAbsent(s.node(), n -> new ArrayList<>()).add(s);
            }
        }
        List<String> up = new ArrayList<>();
        List<String> down = new ArrayList<>();
        for (String node : nodes) {
            List<AnnounceFacts.SessionReport> sessions = byNode.getOrDefault(node, List.of()).stream()
                    .sorted(java.util.Comparator.comparing(s -> String.valueOf(s.peer()))).toList();
            List<String> established = sessions.stream().filter(s -> s.carries() && s.carriesAddress(vip))
                    .map(AnnounceFacts.SessionReport::peer).toList();
            // the network's routes are sent, but the configuration BIRD runs has no route for this VIP yet
            List<String> notYet = sessions.stream().filter(s -> s.carries() && !s.carriesAddress(vip))
                    .map(AnnounceFacts.SessionReport::peer).toList();
            List<AnnounceFacts.SessionReport> withheld = sessions.stream()
                    .filter(s -> s.established() && s.withheld() != null).toList();
            if (!established.isEmpty()) {
                up.add(node + " (" + String.join(", ", established) + ")");
            } else if (!notYet.isEmpty()) {
                down.add(node + ": its BIRD does not carry a route for VIP " + vip + " yet (" + String.join(", ",
                        notYet) + ": not in status.carriedAddresses)");
            } else if (sessions.isEmpty() && facts.refused(node, JuneauConstants.KIND_BGP_SESSION) != null) {
                down.add(RefusedWrites.writesRefused(node, JuneauConstants.KIND_BGP_SESSION,
                        facts.refused(node, JuneauConstants.KIND_BGP_SESSION)));
            } else if (!withheld.isEmpty()) {
                // Established, but its BIRD does not carry this network's routes: the router never learnt the VIP
                down.add(node + ": its BIRD does not carry the routes of this network (" + withheld.stream()
                        .map(s -> s.peer() + ": " + s.withheld()).collect(Collectors.joining("; ")) + ")");
            } else if (sessions.isEmpty()) {
                down.add(node + ": no BGPSession" + (facts.peers().isEmpty() ? "" : " with " + String.join(", ",
                        facts.peers())) + " (no BGPPeer selects this node, or its juneau-agent does not run)");
            } else {
                down.add(node + ": no Established session (" + sessions.stream().map(s -> s.peer() + ": "
                        + (s.state() == null ? "no state" : s.state())
                        + (s.lastError() == null || s.lastError().isBlank() ? "" : ", " + s.lastError()))
                        .collect(Collectors.joining("; ")) + ")");
            }
        }
        if (up.isEmpty()) {
            return notAnnounced(String.join("; ", down) + "; check kubectl get bgpsessions and the peers");
        }
        return new Announcement(true, JuneauConstants.REASON_ANNOUNCED, "VIP " + vip + " is announced by "
                + String.join(", ", up) + (down.isEmpty() ? "" : "; not by " + String.join("; ", down)));
    }

    private static Announcement notAnnounced(String message) {
        return new Announcement(false, JuneauConstants.REASON_NOT_ANNOUNCED, message);
    }
}
