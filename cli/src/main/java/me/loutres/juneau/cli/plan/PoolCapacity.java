package me.loutres.juneau.cli.plan;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.allocation.FamilyCounts;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * Capacity, use and free addresses per AddressPool, counted the controller's way (the allocator): edges of CIDRs
 * shorter than /31 and node InternalIPs in arp pools never count as capacity; use comes from ServiceLoadBalancer
 * statuses when the input has any, else from the pools' own status.
 */
public final class PoolCapacity {
    /**
     * One pool. {@code families}: its counts per family, as the controller writes them to {@code status.ipv4} /
     * {@code status.ipv6} ({@link FamilyCounts#forStatus}, docs/dual-stack.md): empty for a pool without IPv6 entries.
     */
    public record Row(String pool, String mode, String network, String entries, long capacity, long used, long free,
               List<String> problems, Map<IpFamily, FamilyCounts> families) {
    }

    private PoolCapacity() {
    }

    public static List<Row> rows(List<HasMetadata> objects) {
        List<AddressPool> pools = new ArrayList<>();
        List<ExternalNetwork> networks = new ArrayList<>();
        List<ServiceLoadBalancer> slbs = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        List<io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR> serviceCidrs = new ArrayList<>();
        for (HasMetadata o : objects) {
            if (o instanceof AddressPool p) {
                pools.add(p);
            } else if (o instanceof ExternalNetwork n) {
                networks.add(n);
            } else if (o instanceof ServiceLoadBalancer s) {
                slbs.add(s);
            } else if (o instanceof Node n) {
                nodes.add(n);
            } else if (o instanceof io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR c) {
                serviceCidrs.add(c);
            }
        }
        // the controller's feed: a bad entry offers no address (and is reported), node IPs are not arp capacity,
        // ServiceCIDRs and podCIDRs are no capacity at all, the records are restored oldest first
        Allocator allocator = AllocatorFeed.allocator(pools, nodes, serviceCidrs, slbs);
        List<Row> rows = new ArrayList<>();
        List<List<String>> problems = new ArrayList<>();
        for (AddressPool pool : pools) {
            problems.add(AllocatorFeed.pool(pool).badEntries().stream().map(AllocatorFeed.BadEntry::reason).toList());
        }
        for (int i = 0; i < pools.size(); i++) {
            AddressPool pool = pools.get(i);
            String name = pool.getMetadata().getName();
            PoolUsage usage = allocator.usage(name);
            long used = usage.allocated();
            if (slbs.isEmpty() && pool.getStatus() != null && pool.getStatus().getAllocated() != null) {
                used = pool.getStatus().getAllocated();
            }
            String network = networks.stream()
                    .filter(n -> n.getSpec() != null && n.getSpec().getAddressPools() != null
                            && n.getSpec().getAddressPools().contains(name))
                    .map(n -> n.getMetadata().getName()).findFirst().orElse("-");
            String mode = pool.getSpec() == null ? "-" : String.valueOf(pool.getSpec().getAdvertiseMode());
            String entries = pool.getSpec() == null || pool.getSpec().getAddresses() == null ? ""
                    : String.join(",", pool.getSpec().getAddresses().stream().map(String::trim).toList());
            rows.add(new Row(name, mode, network, entries, usage.total(), used, Math.max(0, usage.total() - used),
                    problems.get(i), FamilyCounts.forStatus(pool, new PoolUsage(name, usage.total(), used),
                            ipv6Used(pool))));
        }
        return rows;
    }

    /** The controller hands out no IPv6 VIP yet (docs/dual-stack.md): what the pool's status says, else none. */
    private static long ipv6Used(AddressPool pool) {
        return pool.getStatus() == null || pool.getStatus().getIpv6() == null
                || pool.getStatus().getIpv6().getAllocated() == null ? 0 : pool.getStatus().getIpv6().getAllocated();
    }
}
