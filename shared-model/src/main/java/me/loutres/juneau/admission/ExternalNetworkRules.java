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
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.view.ClusterView;

/** SPEC §1.2 and §2.5: ExternalNetwork CREATE, UPDATE, DELETE. */
final class ExternalNetworkRules extends ReferencedKindRules {
    static final int MAX_NAMED_REFERENCES = 5;

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
        if (review.beingDeleted()) {
            return verdict;
        }
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
