package me.loutres.juneau.status;

import java.util.List;
import java.util.stream.Collectors;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.JuneauConstants;

/** Human messages for conditions and events: each says what happened and what to do about it. */
public final class Messages {

    private Messages() {
    }

    /**
     * {@code no free address in AddressPools pool-a (254/254 used), pool-b (16/16 used) of ExternalNetwork "public"; ...}
     */
    public static String exhausted(String network, List<PoolUsage> pools) {
        if (pools == null || pools.isEmpty()) {
            return "no free address: ExternalNetwork \"" + network + "\" has no AddressPool to allocate from; "
                    + "create the AddressPools it lists";
        }
        String list = pools.stream().map(p -> p.pool() + " (" + p.used() + "/" + p.total() + " used)")
                .collect(Collectors.joining(", "));
        return "no free address in " + (pools.size() == 1 ? "AddressPool " : "AddressPools ") + list
                + " of ExternalNetwork \"" + network + "\"; append an entry to one of these AddressPools, add another "
                + "AddressPool to the ExternalNetwork, or delete a Service that no longer needs its VIP "
                + "(this Service gets the next address freed)";
    }

    /** The requested address is the VIP of another Service, or (arp) a Node's InternalIP. */
    /** The younger of two claims on one address (docs/allocation.md, "Two claims on one address"). */
    public static String addressConflict(String ip, String holder) {
        return "status.vip " + ip + " is also the VIP of Service " + holder + ", whose allocation is older and keeps"
                + " it; this Service gets another address";
    }

    public static String requestedInUse(String ip, String holder) {
        if (Allocator.NODE_ADDRESS_HOLDER.equals(holder)) {
            return "requested IP " + ip + " is the InternalIP of a Node and cannot be announced by ARP; set annotation "
                    + JuneauConstants.ANNOTATION_REQUESTED_IP + " to another address, or remove it";
        }
        if (Allocator.CLUSTER_RANGE_HOLDER.equals(holder)) {
            return "requested IP " + ip + " lies in a range the cluster network uses (a ServiceCIDR or a Node's "
                    + "podCIDR; condition Overlap of the AddressPool names it) and is never handed out; set annotation "
                    + JuneauConstants.ANNOTATION_REQUESTED_IP + " to another address, or remove it";
        }
        return "requested IP " + ip + " is already the VIP of Service " + holder + "; set annotation "
                + JuneauConstants.ANNOTATION_REQUESTED_IP + " to another address or remove it, or delete Service "
                + holder + " (this Service gets the address as soon as it is released)";
    }

    /** The requested address is in no usable range of the network (edges of CIDRs shorter than /31 included). */
    public static String requestedOutside(String ip, String network, List<String> poolRanges) {
        String ranges = poolRanges == null || poolRanges.isEmpty() ? "none" : String.join(", ", poolRanges);
        return "requested IP " + ip + " is outside every AddressPool of ExternalNetwork \"" + network
                + "\" (usable: " + ranges + "; network and broadcast addresses of CIDRs shorter than /31 are never "
                + "used); set annotation " + JuneauConstants.ANNOTATION_REQUESTED_IP
                + " to an address inside these ranges, or remove it";
    }

    public static String allocated(String vip, String pool) {
        return "VIP " + vip + " allocated from AddressPool " + pool;
    }

    /**
     * Available=True: who <em>may</em> advertise the VIP (docs/phases-and-conditions.md); whether it really reaches
     * the network is condition Announced's to say.
     */
    public static String ready(String vip, List<String> nodes, String arpNode) {
        if (arpNode != null) {
            return "node " + arpNode + " is elected to answer ARP for VIP " + vip + "; " + nodes.size()
                    + " node(s) with a local ready backend may: " + String.join(", ", nodes);
        }
        return nodes.size() + " node(s) with a local ready backend may advertise VIP " + vip + ": "
                + String.join(", ", nodes);
    }

    /** Available=False with a VIP: no node may advertise it. */
    public static String noReadyBackends(String vip, boolean backendsButNoArpNode) {
        if (backendsButNoArpNode) {
            return "VIP " + vip + " has nodes with ready backends but none is elected to answer ARP for it; check the "
                    + "controller's events and its ARPAdvertisement";
        }
        return "VIP " + vip + " has no node that may advertise it: no ready endpoint with a node; check that the"
                + " Service's selector matches running pods that pass their readiness probes (with"
                + " externalTrafficPolicy Local only nodes with a local ready backend advertise the VIP)";
    }

    /**
     * Available=False: every node with a ready backend is left out by the network's node selector or Kubernetes'
     * exclusion label; {@code why} is {@code node: reason} per node.
     */
    public static String noEligibleNode(String vip, List<String> why) {
        return "VIP " + vip + " has no node that may advertise it: every node with a ready backend is left out ("
                + String.join("; ", why) + "); remove the exclusion label, widen the ExternalNetwork's nodeSelector,"
                + " or run the backends on selected nodes";
    }

    /** Available=False (ARP): the nodes with ready backends run no agent (no agent Lease), so none can answer. */
    public static String noAgents(String vip, List<String> nodes) {
        return "VIP " + vip + " is answered by no node: no node with a ready backend runs a juneau-agent (no Lease"
                + " juneau-agent-<node> for " + String.join(", ", nodes) + "); install the agent DaemonSet on those"
                + " nodes, or start the controller with --arp-without-agents where no agent is meant to answer";
    }

    /** Appended to Available: nodes with a ready backend that do not advertise, and why. */
    public static String notAdvertising(List<String> why) {
        return why.isEmpty() ? "" : "; not advertising: " + String.join("; ", why);
    }

    /** Available=False: the nodes with ready backends are all dead by their agents' Leases (docs/phases-and-conditions.md). */
    public static String onlyDeadNodes(String vip, List<String> dead) {
        return "VIP " + vip + " is not answered: every node with a ready backend is dead by its agent's Lease ("
                + String.join(", ", dead) + "); check those nodes and their juneau-agent pods, or move the backends";
    }

    /** Allocated=False with the VIP kept: the network broke after allocation. */
    public static String keptUnusable(String vip, String why) {
        return "VIP " + vip + " is kept, but " + why;
    }

    /** Available=False: the API server refused a write the controller needs. */
    public static String writeDenied(String what, String serverMessage) {
        return "the API server refused to " + what + ": " + serverMessage
                + "; the controller retries with backoff (up to every 5 minutes) until the cause is fixed";
    }

    /** Available=False without a VIP. */
    public static String notAllocated(String allocationMessage) {
        return "no VIP allocated: " + allocationMessage;
    }
}
