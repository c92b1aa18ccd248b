package me.loutres.juneau.allocation;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.IpPoolEntry;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.view.NodeInternalIps;
import me.loutres.juneau.view.ViewKeys;

/**
 * The one way the {@link Allocator} is fed from cluster objects, so the controller, {@code juneau validate} and
 * {@code juneau plan} hand out and count the same addresses:
 * <ul>
 *   <li>{@link #pool}: a pool's entries in list order; an entry that does not parse offers no address and is
 *       reported. Admission refuses such entries, so one exists only if it was written around the webhook; the
 *       pool's other entries are still counted and the VIPs recorded in them stay held, while
 *       {@link NetworkResolver} makes every network that lists the pool unusable (phase Error naming the entry), so
 *       nothing new is handed out from a pool nobody can fully read — the same in the controller, {@code validate}
 *       and {@code plan};</li>
 *   <li>{@link #nodeAddresses}: Node InternalIPs ({@link NodeInternalIps}), never handed out from arp pools;</li>
 *   <li>{@link #learntRanges}: the ServiceCIDRs and the Nodes' podCIDRs, never handed out from any pool;</li>
 *   <li>{@link #records}: the allocation records of truth ({@code status.vip} + {@code status.addressPool}), oldest
 *       ServiceLoadBalancer first (creationTimestamp, then namespace/name; one without a timestamp counts as the
 *       newest), so the oldest keeps an address two records claim.</li>
 * </ul>
 * {@link #allocator} puts the three together for a one-shot forecast.
 */
public final class AllocatorFeed {
    private AllocatorFeed() {
    }

    /** One pool as the allocator takes it, with the entries left out. */
    public record PoolFeed(String name, String mode, List<PoolEntry> entries, List<BadEntry> badEntries) {
        public PoolFeed {
            entries = List.copyOf(entries);
            badEntries = List.copyOf(badEntries);
        }

        /** Puts the pool into the allocator (replacing what it had for that name). */
        public void into(Allocator allocator) {
            allocator.upsertPool(name, mode, entries);
        }

        /** One line per entry left out, naming the pool and the entry. */
        public List<String> problems() {
            return badEntries.stream().map(b -> "AddressPool " + name + " spec.addresses[" + b.index() + "]: "
                    + b.reason() + "; this entry offers no address").toList();
        }
    }

    /** An entry that does not parse: its index in {@code spec.addresses} and why. */
    public record BadEntry(int index, String reason) {
    }

    /** The records of truth, and the statuses that could not be read as one (with why). */
    public record Records(List<AllocationRecord> records, List<String> problems) {
        public Records {
            records = List.copyOf(records);
            problems = List.copyOf(problems);
        }
    }

    /** Why an IPv6 entry offers no address yet. */
    static final String IPV6_NOT_HANDED_OUT = "\"%s\" is an IPv6 entry; the controller does not hand out IPv6 VIPs yet "
            + "(docs/dual-stack.md), so it counts for admission (no other pool may overlap it) but no Service gets an "
            + "address from it";

    public static PoolFeed pool(AddressPool pool) {
        String name = pool.getMetadata() == null ? null : pool.getMetadata().getName();
        String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
        List<String> texts = pool.getSpec() == null || pool.getSpec().getAddresses() == null ? List.of()
                : pool.getSpec().getAddresses();
        List<PoolEntry> entries = new ArrayList<>();
        List<BadEntry> bad = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            try {
                IpPoolEntry entry = IpPoolEntry.parse(mode, texts.get(i));
                if (entry.ipv4().isPresent()) {
                    entries.add(entry.ipv4().get());
                } else {
                    // admitted (docs/dual-stack.md), but this allocator hands out IPv4 only so far: said, not hidden
                    bad.add(new BadEntry(i, IPV6_NOT_HANDED_OUT.formatted(texts.get(i))));
                }
            } catch (InvalidAddressException e) {
                bad.add(new BadEntry(i, e.getMessage()));
            }
        }
        return new PoolFeed(name, mode, entries, bad);
    }

    public static java.util.Set<Long> nodeAddresses(Collection<Node> nodes) {
        return NodeInternalIps.addresses(nodes);
    }

    /**
     * The records of the ServiceLoadBalancers that hold a VIP, oldest first. A status with a VIP that is not an IPv4
     * address is left out and reported; one with a VIP but no {@code status.addressPool} keeps its address reserved,
     * under the pool whose entries contain it ({@code ""} when none does), and is reported.
     */
    public static Records records(Collection<ServiceLoadBalancer> slbs, Collection<AddressPool> pools) {
        return records(slbs, pools, owner -> List.of());
    }

    /**
     * As {@link #records(Collection, Collection)}, and a status whose VIP does not parse keeps the address its
     * Service still shows in {@code status.loadBalancer.ingress} reserved ({@code ingressOf}: the ingress IPs of the
     * Service {@code namespace/name}): traffic may still reach that address, so it must not go to anyone else.
     */
    public static Records records(Collection<ServiceLoadBalancer> slbs, Collection<AddressPool> pools,
            Function<String, List<String>> ingressOf) {
        List<ServiceLoadBalancer> sorted = new ArrayList<>(slbs == null ? List.of() : slbs);
        sorted.removeIf(s -> s == null || s.getMetadata() == null);
        sorted.sort(OLDEST_FIRST);
        List<AllocationRecord> records = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (ServiceLoadBalancer s : sorted) {
            String vip = s.getStatus() == null ? null : s.getStatus().getVip();
            if (vip == null || vip.isBlank()) {
                continue;
            }
            String owner = owner(s);
            long address;
            try {
                address = Ipv4.parse(vip.trim());
            } catch (InvalidAddressException e) {
                OptionalLong shown = firstIpv4(ingressOf.apply(owner));
                if (shown.isEmpty()) {
                    problems.add("ServiceLoadBalancer " + owner + " status.vip: " + e.getMessage() + "; not restored");
                    continue;
                }
                address = shown.getAsLong();
                String home = poolContaining(address, pools);
                problems.add("ServiceLoadBalancer " + owner + " status.vip: " + e.getMessage() + "; address "
                        + Ipv4.format(address) + " of its Service's status.loadBalancer.ingress stays reserved"
                        + (home.isEmpty() ? " (no AddressPool contains it)" : " in AddressPool " + home));
                records.add(new AllocationRecord(owner, home, address));
                continue;
            }
            String pool = s.getStatus().getAddressPool();
            if (pool == null || pool.isBlank()) {
                pool = poolContaining(address, pools);
                problems.add("ServiceLoadBalancer " + owner + " has status.vip " + Ipv4.format(address)
                        + " but no status.addressPool; the address stays reserved"
                        + (pool.isEmpty() ? " (no AddressPool contains it)" : " in AddressPool " + pool));
            }
            records.add(new AllocationRecord(owner, pool, address));
        }
        return new Records(records, problems);
    }

    /** An allocator holding every pool, the node addresses and the records, as the controller has it after restore. */
    public static Allocator allocator(Collection<AddressPool> pools, Collection<Node> nodes,
            Collection<ServiceLoadBalancer> slbs) {
        return allocator(pools, nodes, List.of(), slbs);
    }

    /**
     * As {@link #allocator(Collection, Collection, Collection)}, with the ranges the cluster says it uses reserved as
     * the controller reserves them: the ServiceCIDRs and the Nodes' podCIDRs ({@link #learntRanges}).
     */
    public static Allocator allocator(Collection<AddressPool> pools, Collection<Node> nodes,
            Collection<ServiceCIDR> serviceCidrs, Collection<ServiceLoadBalancer> slbs) {
        Allocator allocator = new Allocator();
        for (AddressPool p : pools) {
            pool(p).into(allocator);
        }
        allocator.setExcludedAddresses(nodeAddresses(nodes));
        allocator.setReservedRanges(learntRanges(nodes, serviceCidrs));
        allocator.restore(records(slbs, pools).records());
        return allocator;
    }

    /**
     * The IPv4 ranges of the ServiceCIDRs' {@code spec.cidrs} and the Nodes' podCIDRs (the shared reader, as the
     * webhook and the controller read them): never handed out from any pool (docs/allocation.md, "Pools
     * overlapping the cluster's ranges").
     */
    public static List<AddressRange> learntRanges(Collection<Node> nodes, Collection<ServiceCIDR> serviceCidrs) {
        List<AddressRange> out = new ArrayList<>();
        for (Node n : nodes) {
            ViewKeys.podCidrs(n).forEach(h -> out.add(h.range()));
        }
        for (ServiceCIDR c : serviceCidrs) {
            ViewKeys.serviceCidrs(c).forEach(h -> out.add(h.range()));
        }
        return out;
    }

    /** namespace/name, the allocator's owner key. */
    public static String owner(ServiceLoadBalancer s) {
        return s.getMetadata().getNamespace() + "/" + s.getMetadata().getName();
    }

    /**
     * Whether {@code claimant}'s allocation is older than {@code holder}'s, in the order {@link #records} restores
     * them (so a running leader and the next one settle two claims on one address the same way). A holder whose
     * ServiceLoadBalancer is not known keeps what it holds.
     */
    public static boolean older(ServiceLoadBalancer claimant, ServiceLoadBalancer holder) {
        if (claimant == null || claimant.getMetadata() == null || holder == null || holder.getMetadata() == null) {
            return false;
        }
        return OLDEST_FIRST.compare(claimant, holder) < 0;
    }

    private static OptionalLong firstIpv4(List<String> ips) {
        for (String ip : ips == null ? List.<String>of() : ips) {
            if (ip == null) {
                continue;
            }
            try {
                return OptionalLong.of(Ipv4.parse(ip.trim()));
            } catch (InvalidAddressException e) {
                // an ingress entry that is no IPv4 address reserves nothing; try the next one
            }
        }
        return OptionalLong.empty();
    }

    static final Comparator<ServiceLoadBalancer> OLDEST_FIRST = Comparator
            .comparing((ServiceLoadBalancer s) -> s.getMetadata().getCreationTimestamp(),
                    Comparator.nullsLast(Comparator.<String>naturalOrder()))
            .thenComparing(AllocatorFeed::owner);

    private static String poolContaining(long address, Collection<AddressPool> pools) {
        for (AddressPool p : pools == null ? List.<AddressPool>of() : pools) {
            // a pool without a name cannot be one a record points to (kube-apiserver stores none; a fuzzed read may)
            String name = p == null || p.getMetadata() == null ? null : p.getMetadata().getName();
            if (name == null || name.isBlank()) {
                continue;
            }
            for (PoolEntry e : pool(p).entries()) {
                if (e.range().contains(address)) {
                    return name;
                }
            }
        }
        return "";
    }
}
