package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.KubeObjects;

/** docs/admission.md: what an ARPAdvertisement may say, checked for the controller's own writes too. */
final class ArpAdvertisementRules implements KindRules {

    @Override
    public Verdict review(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        if (!(review.isCreate() || review.isUpdate()) || review.object() == null) {
            return verdict;
        }
        ARPAdvertisement arp = KubeObjects.read(review.object(), ARPAdvertisement.class, JuneauConstants.KIND_ARP_ADVERTISEMENT);
        ARPAdvertisementSpec spec = arp.getSpec();
        if (spec == null) {
            verdict.problem("spec: missing; an ARPAdvertisement needs spec.externalNetwork, spec.address and spec.nodeName");
            return verdict;
        }
        if (review.isUpdate() && review.oldObject() != null) {
            ARPAdvertisement old = KubeObjects.read(review.oldObject(), ARPAdvertisement.class, JuneauConstants.KIND_ARP_ADVERTISEMENT);
            ARPAdvertisementSpec o = old.getSpec() == null ? new ARPAdvertisementSpec() : old.getSpec();
            if (!Objects.equals(o.getExternalNetwork(), spec.getExternalNetwork())) {
                verdict.problem("spec.externalNetwork: " + Texts.change(o.getExternalNetwork(), spec.getExternalNetwork())
                        + "; it is immutable (only spec.nodeName may change)");
            }
            if (!Objects.equals(o.getAddress(), spec.getAddress())) {
                verdict.problem("spec.address: " + Texts.change(o.getAddress(), spec.getAddress())
                        + "; it is immutable (only spec.nodeName may change)");
            }
        }
        Long address = null;
        if (spec.getAddress() == null) {
            verdict.problem("spec.address: missing; accepted: an IPv4 address inside the ExternalNetwork's AddressPools");
        } else {
            try {
                address = Ipv4.parse(spec.getAddress());
            } catch (InvalidAddressException e) {
                verdict.problem("spec.address: " + e.getMessage());
            }
        }
        if (review.beingDeleted()) {
            return verdict;
        }
        checkNetworkAndPools(spec, address, view, verdict);
        checkNode(spec, view, verdict);
        if (address != null) {
            checkNotNodeAddress(address, view, verdict);
            checkUnique(Texts.name(arp), address, view, verdict);
        }
        return verdict;
    }

    private static void checkNetworkAndPools(ARPAdvertisementSpec spec, Long address, ClusterView view, Verdict verdict) {
        String name = spec.getExternalNetwork();
        // only for a denial: listing the networks reads every one of them
        java.util.function.Supplier<String> arpNetworks = () -> Texts.list(view.names(ClusterView.NamedKind.EXTERNAL_NETWORK)
                .stream().filter(n -> view.externalNetwork(n).map(x -> x.getSpec() != null
                        && JuneauConstants.MODE_ARP.equals(x.getSpec().getType())).orElse(false)).toList());
        Optional<ExternalNetwork> net = name == null ? Optional.empty() : view.externalNetwork(name);
        if (net.isEmpty()) {
            verdict.problem("spec.externalNetwork: " + (name == null ? "missing" : "ExternalNetwork " + Texts.quote(name)
                    + " does not exist") + "; accepted: an ExternalNetwork of type arp (existing: " + arpNetworks.get() + ")");
            return;
        }
        String type = net.get().getSpec() == null ? null : net.get().getSpec().getType();
        if (!JuneauConstants.MODE_ARP.equals(type)) {
            verdict.problem("spec.externalNetwork: ExternalNetwork " + Texts.quote(name) + " has type " + type
                    + "; accepted: an ExternalNetwork of type arp (existing: " + arpNetworks.get() + ")");
            return;
        }
        if (address == null) {
            return;
        }
        List<String> ranges = new ArrayList<>();
        for (String poolName : net.get().getSpec().getAddressPools() == null ? List.<String>of() : net.get().getSpec().getAddressPools()) {
            AddressPool pool = view.addressPool(poolName).orElse(null);
            if (pool == null || pool.getSpec() == null || !JuneauConstants.MODE_ARP.equals(pool.getSpec().getAdvertiseMode())
                    || pool.getSpec().getAddresses() == null) {
                continue;
            }
            for (String text : pool.getSpec().getAddresses()) {
                try {
                    PoolEntry entry = PoolEntry.parse(JuneauConstants.MODE_ARP, text);
                    if (entry.isUsable(address)) {
                        return;
                    }
                    ranges.add(entry.usable() + " (AddressPool " + poolName + ")");
                } catch (InvalidAddressException e) {
                    // reported by the pool's own webhook; it offers no address here
                }
            }
        }
        verdict.problem("spec.address: " + Ipv4.format(address) + " is outside the AddressPools of ExternalNetwork "
                + Texts.quote(name) + "; accepted: an address in " + Texts.list(ranges));
    }

    private static void checkNode(ARPAdvertisementSpec spec, ClusterView view, Verdict verdict) {
        String node = spec.getNodeName();
        if (node == null || node.isEmpty() || view.node(node).isEmpty()) {
            verdict.problem("spec.nodeName: " + (node == null || node.isEmpty() ? "missing" : "Node " + Texts.quote(node)
                    + " does not exist") + "; accepted: an existing Node (" + Texts.list(view.names(ClusterView.NamedKind.NODE))
                    + ")");
        }
    }

    private static void checkNotNodeAddress(long address, ClusterView view, Verdict verdict) {
        String node = view.nodeInternalIpsIn(AddressRange.single(address)).stream().map(RangeIndex.Hit::value)
                .sorted().findFirst().orElse(null);
        if (node != null) {
            verdict.problem("spec.address: " + Ipv4.format(address) + " is the InternalIP of Node " + node
                    + "; announcing it would take the address away from the node");
        }
    }

    private static void checkUnique(String name, long address, ClusterView view, Verdict verdict) {
        for (ARPAdvertisement other : view.arpAdvertisementsAt(address)) {
            if (Objects.equals(Texts.name(other), name) || Texts.beingDeleted(other)) {
                continue;
            }
            verdict.problem("spec.address: " + Ipv4.format(address) + " is already announced by ARPAdvertisement "
                    + Texts.name(other) + "; at most one ARPAdvertisement per address");
            return;
        }
    }
}
