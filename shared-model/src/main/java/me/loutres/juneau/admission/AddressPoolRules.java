package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpPoolEntry;
import me.loutres.juneau.ip.IpRange;
import me.loutres.juneau.ip.Ipv6SpecialPurposeRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.ip.SpecialPurposeRange;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.IpLearntRange;
import me.loutres.juneau.view.IpPoolEntryRef;
import me.loutres.juneau.view.LearntRange;
import me.loutres.juneau.view.PoolEntryRef;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.WideRangeIndex;

/** docs/api-reference.md: AddressPool CREATE, UPDATE, DELETE. */
final class AddressPoolRules extends ReferencedKindRules {
    private static final String MODES = "accepted: bgp (entries are CIDRs) or arp (entries are start-end ranges)";

    private static final String SPECIAL_CIDRS = String.join(", ",
            SpecialPurposeRange.ALL.stream().map(SpecialPurposeRange::cidr).toList());

    private static final String SPECIAL_CIDRS_V6 = String.join(", ",
            Ipv6SpecialPurposeRange.ALL.stream().map(Ipv6SpecialPurposeRange::cidr).toList());

    private final AdmissionSettings settings;

    AddressPoolRules(AdmissionSettings settings) {
        this.settings = settings;
    }

    @Override
    Verdict reviewWrite(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        AddressPool pool = review.objectAs(AddressPool.class, JuneauConstants.KIND_ADDRESS_POOL);
        AddressPool old = review.oldObjectAs(AddressPool.class, JuneauConstants.KIND_ADDRESS_POOL);
        if (pool.getSpec() == null) {
            verdict.problem("spec: missing; an AddressPool needs spec.advertiseMode and spec.addresses");
            return verdict;
        }
        String mode = pool.getSpec().getAdvertiseMode();
        boolean modeOk = Texts.isMode(mode);
        String oldMode = old == null || old.getSpec() == null ? null : old.getSpec().getAdvertiseMode();
        Texts.modeField(verdict, "spec.advertiseMode", mode, MODES, old != null, oldMode,
                JuneauConstants.KIND_ADDRESS_POOL);
        List<String> texts = pool.getSpec().getAddresses() == null ? List.of() : pool.getSpec().getAddresses();
        if (texts.isEmpty()) {
            verdict.problem("spec.addresses: at least one entry is required; "
                    + (modeOk ? PoolEntry.acceptedFor(mode) : "CIDRs such as 192.0.2.0/24 for bgp, ranges such as 192.0.2.10-192.0.2.20 for arp"));
        }
        Map<Integer, IpPoolEntry> entries = new LinkedHashMap<>();
        if (modeOk) {
            for (int i = 0; i < texts.size(); i++) {
                try {
                    entries.put(i, IpPoolEntry.parse(mode, texts.get(i)));
                } catch (InvalidAddressException e) {
                    verdict.problem("spec.addresses[" + i + "]: " + e.getMessage());
                }
            }
            checkWithinPool(entries, verdict);
        }
        Set<String> oldCanonical = old == null ? Set.of() : checkAppendOnly(old, entries, texts, verdict);
        // only new entries are checked against the cluster: an admitted entry cannot be removed, so re-checking it
        // against a Node that joined later would block every further change of the pool
        Map<Integer, IpPoolEntry> added = new LinkedHashMap<>();
        entries.forEach((i, e) -> {
            if (!oldCanonical.contains(e.canonical())) {
                added.put(i, e);
            }
        });
        checkReserved(added, verdict);
        if (!review.beingDeleted()) {
            checkOtherPools(Texts.name(pool), added, view, verdict);
            checkNodes(added, view, verdict);
            checkLearnt(added, view, verdict);
        }
        return verdict;
    }

    private static void checkWithinPool(Map<Integer, IpPoolEntry> entries, Verdict verdict) {
        List<Integer> seen = new ArrayList<>();
        for (Map.Entry<Integer, IpPoolEntry> e : entries.entrySet()) {
            for (int j : seen) {
                IpPoolEntry earlier = entries.get(j);
                if (earlier.canonical().equals(e.getValue().canonical())) {
                    verdict.problem("spec.addresses[" + e.getKey() + "]: " + Texts.quote(e.getValue().text())
                            + " duplicates spec.addresses[" + j + "] " + Texts.quote(earlier.text()) + "; list each entry once");
                    break;
                }
                Optional<IpRange> shared = earlier.overlap(e.getValue());
                if (shared.isPresent()) {
                    verdict.problem("spec.addresses[" + e.getKey() + "]: " + Texts.quote(e.getValue().text())
                            + " overlaps spec.addresses[" + j + "] " + Texts.quote(earlier.text()) + " (shared: "
                            + shared.get() + "); entries of a pool must not overlap");
                    break;
                }
            }
            seen.add(e.getKey());
        }
    }

    /** Entries are append-only; returns the canonical forms of the old entries. */
    private static Set<String> checkAppendOnly(AddressPool old, Map<Integer, IpPoolEntry> entries, List<String> texts,
            Verdict verdict) {
        String oldMode = old.getSpec() == null ? null : old.getSpec().getAdvertiseMode();
        List<String> oldTexts = old.getSpec() == null || old.getSpec().getAddresses() == null ? List.of()
                : old.getSpec().getAddresses();
        Set<String> now = new HashSet<>();
        entries.values().forEach(e -> now.add(e.canonical()));
        texts.forEach(t -> now.add(t == null ? "" : t.trim()));
        Set<String> oldCanonical = new HashSet<>();
        for (int i = 0; i < oldTexts.size(); i++) {
            String canonical = canonicalOrText(oldMode, oldTexts.get(i));
            oldCanonical.add(canonical);
            if (!now.contains(canonical)) {
                verdict.problem("spec.addresses: entry " + Texts.quote(oldTexts.get(i)) + " (was spec.addresses[" + i
                        + "]) was removed; entries are append-only because VIPs may be allocated from them; "
                        + "accepted: every existing entry kept, new entries added");
            }
        }
        return oldCanonical;
    }

    private static String canonicalOrText(String mode, String text) {
        try {
            return IpPoolEntry.parse(mode, text).canonical();
        } catch (InvalidAddressException e) {
            return text == null ? "" : text.trim();
        }
    }

    private void checkReserved(Map<Integer, IpPoolEntry> added, Verdict verdict) {
        Map<Integer, PoolEntry> v4 = ipv4(added);
        for (SpecialPurposeRange special : SpecialPurposeRange.ALL) {
            v4.forEach((i, e) -> e.range().intersection(special.range()).ifPresent(shared ->
                    verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(e.text()) + " overlaps "
                            + special.describe() + " (shared: " + shared + "), which can never be a VIP; "
                            + "accepted: unicast addresses outside " + SPECIAL_CIDRS)));
        }
        for (Ipv6SpecialPurposeRange special : Ipv6SpecialPurposeRange.ALL) {
            ipv6(added).forEach((i, e) -> e.range().intersection(special.range()).ifPresent(shared ->
                    verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(e.text()) + " overlaps "
                            + special.describe() + " (shared: " + shared + "), which can never be a VIP; "
                            + "accepted: unicast addresses outside " + SPECIAL_CIDRS_V6
                            + " (documentation 2001:db8::/32 and unique-local fc00::/7 addresses are fine)")));
        }
        for (AdmissionSettings.ReservedCidr reserved : settings.reservedRanges()) {
            v4.forEach((i, e) -> e.range().intersection(reserved.range()).ifPresent(shared ->
                    verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(e.text()) + " overlaps reserved CIDR "
                            + reserved.text() + " (shared: " + shared + "); the cluster network uses those addresses, "
                            + "so they must never become VIPs")));
        }
    }

    private static void checkOtherPools(String name, Map<Integer, IpPoolEntry> added, ClusterView view, Verdict verdict) {
        ipv4(added).forEach((i, e) -> {
            for (PoolEntryRef theirs : view.poolEntriesOverlapping(e.range())) {
                if (!Objects.equals(theirs.poolName(), name)) {
                    e.overlap(theirs.entry()).ifPresent(shared -> otherPool(i, e.text(), theirs.poolName(),
                            theirs.text(), shared.toString(), verdict));
                }
            }
        });
        ipv6(added).forEach((i, e) -> {
            for (IpPoolEntryRef theirs : view.ipv6PoolEntriesOverlapping(e.range())) {
                if (!Objects.equals(theirs.poolName(), name)) {
                    e.overlap(theirs.entry()).ifPresent(shared -> otherPool(i, e.text(), theirs.poolName(),
                            theirs.text(), shared.toString(), verdict));
                }
            }
        });
    }

    private static void otherPool(int i, String text, String theirPool, String theirText, String shared, Verdict verdict) {
        verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(text) + " overlaps AddressPool " + theirPool
                + " entry " + Texts.quote(theirText) + " (shared: " + shared
                + "); an address may belong to only one AddressPool");
    }

    private static void checkNodes(Map<Integer, IpPoolEntry> added, ClusterView view, Verdict verdict) {
        added.forEach((i, e) -> {
            List<String> hits = new ArrayList<>();
            if (e.family() == IpFamily.IPV4) {
                for (RangeIndex.Hit<String> node : view.nodeInternalIpsIn(e.range().ipv4())) {
                    hits.add(Ipv4.format(node.range().first()) + " (Node " + node.value() + ")");
                }
            } else {
                for (WideRangeIndex.Hit<String> node : view.ipv6NodeInternalIpsIn(e.range())) {
                    hits.add(node.range().first() + " (Node " + node.value() + ")");
                }
            }
            if (!hits.isEmpty()) {
                verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(e.text()) + " contains the InternalIP of "
                        + Texts.list(hits, 5) + "; addresses the cluster network uses must never become VIPs, "
                        + "so leave them out of the entry");
            }
        });
    }

    /** ServiceCIDRs and Nodes' podCIDRs: the ranges the cluster says it uses, read instead of configured. */
    private static void checkLearnt(Map<Integer, IpPoolEntry> added, ClusterView view, Verdict verdict) {
        ipv4(added).forEach((i, e) -> {
            for (LearntRange learnt : view.learntRangesOverlapping(e.range())) {
                e.range().intersection(learnt.range()).ifPresent(shared ->
                        learnt(i, e.text(), learnt.source(), shared.toString(), verdict));
            }
        });
        ipv6(added).forEach((i, e) -> {
            for (IpLearntRange learnt : view.ipv6LearntRangesOverlapping(e.range())) {
                e.range().intersection(learnt.range()).ifPresent(shared ->
                        learnt(i, e.text(), learnt.source(), shared.toString(), verdict));
            }
        });
    }

    private static void learnt(int i, String text, String source, String shared, Verdict verdict) {
        verdict.problem("spec.addresses[" + i + "]: " + Texts.quote(text) + " overlaps " + source + " (shared: "
                + shared + "); the cluster network uses those addresses, so they must never become VIPs");
    }

    private static Map<Integer, PoolEntry> ipv4(Map<Integer, IpPoolEntry> entries) {
        Map<Integer, PoolEntry> out = new LinkedHashMap<>();
        entries.forEach((i, e) -> e.ipv4().ifPresent(v4 -> out.put(i, v4)));
        return out;
    }

    private static Map<Integer, IpPoolEntry> ipv6(Map<Integer, IpPoolEntry> entries) {
        Map<Integer, IpPoolEntry> out = new LinkedHashMap<>();
        entries.forEach((i, e) -> {
            if (e.family() == IpFamily.IPV6) {
                out.put(i, e);
            }
        });
        return out;
    }

    @Override
    Verdict reviewDelete(String name, ClusterView view) {
        List<String> listing = new ArrayList<>();
        for (ExternalNetwork net : view.externalNetworksListingPool(name)) {
            listing.add(Texts.name(net));
        }
        if (listing.isEmpty()) {
            return Verdict.allow();
        }
        listing.sort(null);
        return Verdict.deny("AddressPool " + name + " cannot be deleted: ExternalNetwork"
                + (listing.size() > 1 ? "s " : " ") + Texts.list(listing) + (listing.size() > 1 ? " list" : " lists")
                + " it in spec.addressPools; delete " + (listing.size() > 1 ? "those ExternalNetworks" : "that ExternalNetwork")
                + " first (its pool list is append-only)");
    }
}
