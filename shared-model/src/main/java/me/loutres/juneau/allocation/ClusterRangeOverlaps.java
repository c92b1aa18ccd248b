package me.loutres.juneau.allocation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.view.LearntRange;

/**
 * The entries of a stored AddressPool that share addresses with a range the cluster says it uses (a ServiceCIDR, a
 * Node's podCIDR), learnt after admission let the pool in: admission refuses such entries (docs/admission.md), but
 * a Node that joins or a ServiceCIDR that is added later is checked against nothing. The allocator treats those
 * addresses as reserved; this names them, and the VIPs already held there, for the pool's condition {@code Overlap}
 * and its Warning events (docs/allocation.md, "Pools overlapping the cluster's ranges"). Pure.
 */
public final class ClusterRangeOverlaps {
    /** The reason of condition {@code Overlap} (True) and of the Warning event on the pool. */
    public static final String REASON_OVERLAPS_CLUSTER_RANGE = "OverlapsClusterRange";

    private ClusterRangeOverlaps() {
    }

    /** Entry {@code index} of the pool ({@code entry} as written) shares {@code shared} with a learnt range. */
    public record Overlap(int index, String entry, LearntRange learnt, AddressRange shared) {
        public String sentence(String pool) {
            return "AddressPool " + pool + " spec.addresses[" + index + "] \"" + entry + "\" overlaps "
                    + learnt.source() + " (shared: " + shared + "), learnt after the pool was stored; the cluster "
                    + "network uses those addresses, so they are reserved and never handed out (the rest of the "
                    + "pool is used as before)";
        }
    }

    /** A VIP held inside a learnt range: allocated before the range was learnt, kept (docs/allocation.md). */
    public record KeptVip(AllocationRecord record, LearntRange learnt) {
        public String sentence(String pool) {
            return "AddressPool " + pool + ": Service " + record.owner() + " keeps VIP " + Ipv4.format(record.address())
                    + ", inside " + learnt.source() + "; it was allocated before that range was learnt and is not "
                    + "taken back (that would cut its traffic), but the cluster network uses the address: move the "
                    + "Service to another address (docs/operations.md, \"Renumbering a pool\")";
        }
    }

    /**
     * Every entry of the pool that shares usable addresses with a learnt range, one overlap per (entry, range), in
     * entry order. An entry that does not parse offers no address and overlaps nothing.
     *
     * @param learntOverlapping the learnt ranges sharing an address with a range (the cluster view's index)
     */
    public static List<Overlap> of(AddressPool pool, Function<AddressRange, List<LearntRange>> learntOverlapping) {
        List<Overlap> out = new ArrayList<>();
        String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
        List<String> texts = pool.getSpec() == null || pool.getSpec().getAddresses() == null ? List.of()
                : pool.getSpec().getAddresses();
        for (int i = 0; i < texts.size(); i++) {
            PoolEntry entry;
            try {
                entry = PoolEntry.parse(mode, texts.get(i));
            } catch (InvalidAddressException e) {
                continue; // reported as a malformed entry; it offers no address
            }
            for (LearntRange learnt : learntOverlapping.apply(entry.usable())) {
                int index = i;
                entry.usable().intersection(learnt.range()).ifPresent(shared ->
                        out.add(new Overlap(index, texts.get(index), learnt, shared)));
            }
        }
        return out;
    }

    /** The held VIPs that lie in an overlap, each with the first learnt range containing it. */
    public static List<KeptVip> kept(List<AllocationRecord> held, List<Overlap> overlaps) {
        List<KeptVip> out = new ArrayList<>();
        for (AllocationRecord r : held) {
            for (Overlap o : overlaps) {
                if (o.shared().contains(r.address())) {
                    out.add(new KeptVip(r, o.learnt()));
                    break;
                }
            }
        }
        return out;
    }

    /** The learnt ranges as the allocator reserves them. */
    public static List<AddressRange> ranges(List<LearntRange> learnt) {
        return learnt.stream().map(LearntRange::range).toList();
    }
}
