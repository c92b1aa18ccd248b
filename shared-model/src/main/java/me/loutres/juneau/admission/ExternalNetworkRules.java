package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.bgp.NetworkBgpRules;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.view.ClusterView;

/** ExternalNetwork CREATE, UPDATE, DELETE (docs/admission.md, ExternalNetwork). */
final class ExternalNetworkRules extends ReferencedKindRules {
    static final int MAX_NAMED_REFERENCES = 5;

    static final String DEFAULT_FIELD = "metadata.annotations[\"" + JuneauConstants.ANNOTATION_DEFAULT_NETWORK + "\"]";

    /**
     * The default-network mark (docs/api-reference.md, "The default network"): "true" or "false", and at most one
     * network marked, so which network serves a Service without the annotation is never a guess. Only a write that
     * newly marks this network is checked against the others: two marks stored around the webhook must not block
     * unrelated changes (the controller reports them on the Services instead).
     */
    private static void defaultMark(Verdict verdict, ExternalNetwork net, ExternalNetwork old, ClusterView view,
            boolean beingDeleted) {
        Map<String, String> a = net.getMetadata() == null ? null : net.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(JuneauConstants.ANNOTATION_DEFAULT_NETWORK);
        if (value == null) {
            return;
        }
        if (!DefaultNetwork.TRUE.equals(value) && !"false".equals(value)) {
            verdict.problem(DEFAULT_FIELD + ": " + Texts.quote(value) + " is not accepted; accepted: \"true\" (this"
                    + " ExternalNetwork serves Services without annotation " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK
                    + ") or \"false\"");
            return;
        }
        if (beingDeleted || !DefaultNetwork.isDefault(net) || DefaultNetwork.isDefault(old)) {
            return;
        }
        String name = Texts.name(net);
        List<String> others = DefaultNetwork.defaults(view.defaultNetworks()).stream()
                .filter(n -> !n.equals(name)).toList();
        if (!others.isEmpty()) {
            verdict.problem(DEFAULT_FIELD + ": ExternalNetworks " + Texts.quote(name) + " and "
                    + String.join(", ", others.stream().map(Texts::quote).toList()) + " would both be marked "
                    + DefaultNetwork.MARK + "; at most one ExternalNetwork is the default; accepted: remove the mark"
                    + " from " + String.join(", ", others.stream().map(Texts::quote).toList())
                    + " first, or leave it off " + Texts.quote(name));
        }
    }

    @Override
    Verdict reviewWrite(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        ExternalNetwork net = review.objectAs(ExternalNetwork.class, JuneauConstants.KIND_EXTERNAL_NETWORK);
        ExternalNetwork old = review.oldObjectAs(ExternalNetwork.class, JuneauConstants.KIND_EXTERNAL_NETWORK);
        if (net.getSpec() == null) {
            verdict.problem("spec: missing; an ExternalNetwork needs spec.type and spec.addressPools");
            return verdict;
        }
        String type = net.getSpec().getType();
        boolean typeOk = Texts.isMode(type);
        String oldType = old == null || old.getSpec() == null ? null : old.getSpec().getType();
        Texts.modeField(verdict, "spec.type", type, "accepted: bgp, arp", old != null, oldType,
                JuneauConstants.KIND_EXTERNAL_NETWORK);
        List<String> pools = net.getSpec().getAddressPools() == null ? List.of() : net.getSpec().getAddressPools();
        if (pools.isEmpty()) {
            verdict.problem("spec.addressPools: at least one AddressPool name is required");
        }
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < pools.size(); i++) {
            Integer j = first.putIfAbsent(pools.get(i), i);
            if (j != null) {
                verdict.problem("spec.addressPools[" + i + "]: " + Texts.quote(pools.get(i)) + " is already listed at spec.addressPools["
                        + j + "]; list each AddressPool once");
            }
        }
        List<String> oldPools = old == null || old.getSpec() == null || old.getSpec().getAddressPools() == null
                ? List.of() : old.getSpec().getAddressPools();
        for (String removed : oldPools) {
            if (!pools.contains(removed)) {
                verdict.problem("spec.addressPools: " + Texts.quote(removed) + " was removed; the list is append-only because "
                        + "VIPs may be allocated from it; accepted: every listed pool kept, new pools added");
            }
        }
        bgpAndArp(verdict, net.getSpec(), type);
        LabelSelectorRules.check(verdict, "spec.nodeSelector", net.getSpec().getNodeSelector());
        ServiceAllocationRules.check(verdict, net.getSpec().getServiceAllocation());
        defaultMark(verdict, net, old, view, review.beingDeleted());
        if (review.beingDeleted()) {
            return verdict;
        }
        peersExist(verdict, net.getSpec(), old == null ? null : old.getSpec(), view);
        String name = Texts.name(net);
        for (int i = 0; i < pools.size(); i++) {
            String poolName = pools.get(i);
            if (first.get(poolName) != i || oldPools.contains(poolName)) {
                continue; // admitted before: re-checking would block unrelated changes
            }
            String field = "spec.addressPools[" + i + "]: ";
            Optional<AddressPool> pool = view.addressPool(poolName);
            if (pool.isEmpty()) {
                verdict.problem(field + "AddressPool " + Texts.quote(poolName) + " does not exist; existing: "
                        + Texts.list(view.names(ClusterView.NamedKind.ADDRESS_POOL)));
                continue;
            }
            String mode = pool.get().getSpec() == null ? null : pool.get().getSpec().getAdvertiseMode();
            if (typeOk && !type.equals(mode)) {
                verdict.problem(field + "AddressPool " + Texts.quote(poolName) + " has advertiseMode " + mode
                        + ", but this ExternalNetwork has type " + type + "; accepted: AddressPools with advertiseMode " + type);
            }
            List<String> others = new ArrayList<>();
            for (ExternalNetwork other : view.externalNetworksListingPool(poolName)) {
                // a network being deleted still counts: its Services may still hold addresses of the pool
                if (!Objects.equals(Texts.name(other), name)) {
                    others.add(Texts.quote(Texts.name(other)));
                }
            }
            if (!others.isEmpty()) {
                others.sort(null);
                verdict.problem(field + "AddressPool " + Texts.quote(poolName) + " is already listed by ExternalNetwork "
                        + String.join(", ", others) + "; a pool belongs to at most one ExternalNetwork");
            }
        }
        return verdict;
    }

    /** spec.bgp only on bgp networks, spec.arp only on arp ones, and their fields (docs/admission.md). */
    private static void bgpAndArp(Verdict verdict, ExternalNetworkSpec spec, String type) {
        ExternalNetworkBgp bgp = spec.getBgp();
        if (bgp != null && JuneauConstants.MODE_ARP.equals(type)) {
            verdict.problem("spec.bgp: set on an ExternalNetwork of type arp; accepted: spec.bgp only with type bgp"
                    + " (spec.arp for arp networks)");
        }
        if (spec.getArp() != null && JuneauConstants.MODE_BGP.equals(type)) {
            verdict.problem("spec.arp: set on an ExternalNetwork of type bgp; accepted: spec.arp only with type arp"
                    + " (spec.bgp for bgp networks)");
        }
        NetworkBgpRules.problems(bgp).forEach(verdict::problem);
        List<String> interfaces = spec.getArp() == null || spec.getArp().getInterfaces() == null ? List.of()
                : spec.getArp().getInterfaces();
        for (int i = 0; i < interfaces.size(); i++) {
            if (!isInterfaceName(interfaces.get(i))) {
                verdict.problem("spec.arp.interfaces[" + i + "]: " + Texts.quote(interfaces.get(i))
                        + " is not an interface name; accepted: 1 to 15 characters without '/', ':' or whitespace,"
                        + " not . or .., e.g. eth0");
            }
        }
    }

    /** As the Linux kernel accepts a network interface name (dev_valid_name). */
    static boolean isInterfaceName(String s) {
        if (s == null || s.isEmpty() || s.length() > 15 || s.equals(".") || s.equals("..")) {
            return false;
        }
        return s.chars().noneMatch(c -> c == '/' || c == ':' || Character.isWhitespace(c) || c < 0x20);
    }

    /** Each BGPPeer newly listed in spec.bgp.peers exists (names kept from before are not judged again). */
    private static void peersExist(Verdict verdict, ExternalNetworkSpec spec, ExternalNetworkSpec oldSpec,
            ClusterView view) {
        if (spec.getBgp() == null || spec.getBgp().getPeers() == null) {
            return;
        }
        List<String> before = oldSpec == null || oldSpec.getBgp() == null || oldSpec.getBgp().getPeers() == null
                ? List.of() : oldSpec.getBgp().getPeers();
        List<String> peers = spec.getBgp().getPeers();
        for (int i = 0; i < peers.size(); i++) {
            String peer = peers.get(i);
            if (peers.indexOf(peer) == i && !before.contains(peer) && view.bgpPeer(peer).isEmpty()) {
                verdict.problem("spec.bgp.peers[" + i + "]: BGPPeer " + Texts.quote(peer) + " does not exist;"
                        + " accepted: names of existing BGPPeers (kubectl get bgppeers), or no peers for every"
                        + " BGPPeer");
            }
        }
    }

    @Override
    Verdict reviewDelete(String name, ClusterView view) {
        List<String> refs = new ArrayList<>();
        for (ServiceLoadBalancer slb : view.serviceLoadBalancersOfNetwork(name)) {
            if (!Texts.beingDeleted(slb)) {
                refs.add(slb.getMetadata().getNamespace() + "/" + Texts.name(slb));
            }
        }
        if (refs.isEmpty()) {
            return Verdict.allow();
        }
        refs.sort(null);
        return Verdict.deny("ExternalNetwork " + name + " cannot be deleted: " + refs.size() + " ServiceLoadBalancer"
                + (refs.size() == 1 ? " references" : "s reference") + " it (" + Texts.list(refs, MAX_NAMED_REFERENCES)
                + "); delete those Services first");
    }
}
