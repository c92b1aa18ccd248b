package me.loutres.juneau.cli.plan;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.allocation.AllocationRecord;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;

/**
 * Capacity, use and free addresses per AddressPool, counted the controller's way (the allocator): edges of CIDRs
 * shorter than /31 and node InternalIPs in arp pools never count as capacity; use comes from ServiceLoadBalancer
 * statuses when the input has any, else from the pools' own status.
 */
final class PoolCapacity {
    record Row(String pool, String mode, String network, String entries, long capacity, long used, long free,
               List<String> problems) {
    }

    private PoolCapacity() {
    }

    static List<Row> rows(List<HasMetadata> objects) {
        List<AddressPool> pools = new ArrayList<>();
        List<ExternalNetwork> networks = new ArrayList<>();
        List<ServiceLoadBalancer> slbs = new ArrayList<>();
        Set<Long> nodeIps = new HashSet<>();
        for (HasMetadata o : objects) {
            if (o instanceof AddressPool p) {
                pools.add(p);
            } else if (o instanceof ExternalNetwork n) {
                networks.add(n);
            } else if (o instanceof ServiceLoadBalancer s) {
                slbs.add(s);
            } else if (o instanceof Node n && n.getStatus() != null && n.getStatus().getAddresses() != null) {
                for (NodeAddress a : n.getStatus().getAddresses()) {
                    if ("InternalIP".equals(a.getType()) && Ipv4.isValid(a.getAddress())) {
                        nodeIps.add(Ipv4.parse(a.getAddress()));
                    }
                }
            }
        }
        Allocator allocator = new Allocator();
        List<Row> rows = new ArrayList<>();
        List<List<String>> problems = new ArrayList<>();
        for (AddressPool pool : pools) {
            String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
            List<PoolEntry> entries = new ArrayList<>();
            List<String> bad = new ArrayList<>();
            for (String text : pool.getSpec() == null || pool.getSpec().getAddresses() == null ? List.<String>of()
                    : pool.getSpec().getAddresses()) {
                try {
                    entries.add(PoolEntry.parse(mode, text));
                } catch (InvalidAddressException e) {
                    bad.add(e.getMessage());
                }
            }
            allocator.upsertPool(pool.getMetadata().getName(), mode, entries);
            problems.add(bad);
        }
        allocator.setExcludedAddresses(nodeIps);
        slbs.sort(Comparator.comparing(s -> s.getMetadata().getCreationTimestamp() == null ? "" : s.getMetadata().getCreationTimestamp()));
        List<AllocationRecord> records = new ArrayList<>();
        for (ServiceLoadBalancer s : slbs) {
            if (s.getStatus() != null && s.getStatus().getVip() != null && Ipv4.isValid(s.getStatus().getVip())) {
                records.add(new AllocationRecord(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(),
                        s.getStatus().getAddressPool(), Ipv4.parse(s.getStatus().getVip())));
            }
        }
        allocator.restore(records);
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
                    problems.get(i)));
        }
        return rows;
    }
}
