package me.loutres.juneau.view;

import me.loutres.juneau.policy.DefaultNetwork;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;

/**
 * The index keys of the cluster views (docs/admission.md, "Cost of a review"), computed once per object version: by
 * the informers' indexers in a cluster, once at load for a snapshot. Both views use these functions, so they answer
 * alike.
 */
public final class ViewKeys {
    public static final String BY_VIP = "vip";
    public static final String BY_NETWORK = "network";
    public static final String BY_POOL = "pool";
    /** ExternalNetworks by their default-network mark: key {@code "true"} for the marked ones. */
    public static final String BY_DEFAULT_MARK = "default-network";
    public static final String BY_ADDRESS = "address";

    private ViewKeys() {
    }

    /** The key of an address: its dotted form, so that differently written VIPs meet. */
    public static String address(long address) {
        return Ipv4.format(address);
    }

    /** A ServiceLoadBalancer's {@code status.vip}, when it is an address. */
    public static List<String> vip(ServiceLoadBalancer slb) {
        String vip = slb.getStatus() == null ? null : slb.getStatus().getVip();
        return vip != null && Ipv4.isValid(vip) ? List.of(address(Ipv4.parse(vip))) : List.of();
    }

    /** A ServiceLoadBalancer's {@code spec.externalNetwork}. */
    public static List<String> network(ServiceLoadBalancer slb) {
        String net = slb.getSpec() == null ? null : slb.getSpec().getExternalNetwork();
        return net == null ? List.of() : List.of(net);
    }

    /** The pools an ExternalNetwork lists. */
    /** {@code ["true"]} for an ExternalNetwork marked the default network (DefaultNetwork.isDefault), else none. */
    public static List<String> defaultMark(ExternalNetwork net) {
        return DefaultNetwork.isDefault(net) ? List.of(DefaultNetwork.TRUE) : List.of();
    }

    public static List<String> pools(ExternalNetwork net) {
        return net.getSpec() == null || net.getSpec().getAddressPools() == null ? List.of()
                : List.copyOf(net.getSpec().getAddressPools().stream().filter(p -> p != null).distinct().toList());
    }

    /** An ARPAdvertisement's {@code spec.address}, when it is an address. */
    public static List<String> arpAddress(ARPAdvertisement arp) {
        String a = arp.getSpec() == null ? null : arp.getSpec().getAddress();
        return a != null && Ipv4.isValid(a) ? List.of(address(Ipv4.parse(a))) : List.of();
    }

    /** A pool's entries that parse (a bad entry offers no address, and its own review reports it). */
    public static List<RangeIndex.Hit<PoolEntryRef>> poolEntries(AddressPool pool) {
        if (pool.getSpec() == null || pool.getSpec().getAddresses() == null) {
            return List.of();
        }
        List<RangeIndex.Hit<PoolEntryRef>> out = new ArrayList<>();
        List<String> texts = pool.getSpec().getAddresses();
        for (int i = 0; i < texts.size(); i++) {
            try {
                PoolEntry entry = PoolEntry.parse(pool.getSpec().getAdvertiseMode(), texts.get(i));
                out.add(new RangeIndex.Hit<>(entry.range(), new PoolEntryRef(pool, i, texts.get(i), entry)));
            } catch (InvalidAddressException e) {
                // skipped: see above
            }
        }
        return out;
    }

    /** A Node's IPv4 InternalIPs, each as a one-address range (so a pool entry can ask which it contains). */
    public static List<RangeIndex.Hit<String>> internalIps(Node node) {
        String name = node.getMetadata() == null ? null : node.getMetadata().getName();
        if (node.getStatus() == null || node.getStatus().getAddresses() == null) {
            return List.of();
        }
        List<RangeIndex.Hit<String>> out = new ArrayList<>();
        for (NodeAddress a : node.getStatus().getAddresses()) {
            if (a != null && "InternalIP".equals(a.getType()) && a.getAddress() != null && Ipv4.isValid(a.getAddress().trim())) {
                long ip = Ipv4.parse(a.getAddress().trim());
                RangeIndex.Hit<String> hit = new RangeIndex.Hit<>(me.loutres.juneau.ip.AddressRange.single(ip), name);
                if (!out.contains(hit)) {
                    out.add(hit);
                }
            }
        }
        return out;
    }

    /** The ranges a Node's {@code spec.podCIDRs} give the cluster's pods (IPv4 ones; IPv6 cannot hold a VIP). */
    public static List<RangeIndex.Hit<LearntRange>> podCidrs(Node node) {
        String name = node.getMetadata() == null ? null : node.getMetadata().getName();
        List<String> cidrs = new ArrayList<>();
        if (node.getSpec() != null && node.getSpec().getPodCIDRs() != null) {
            cidrs.addAll(node.getSpec().getPodCIDRs());
        }
        if (cidrs.isEmpty() && node.getSpec() != null && node.getSpec().getPodCIDR() != null) {
            cidrs.add(node.getSpec().getPodCIDR());
        }
        return LearntRange.hits("Node " + name + " podCIDR", cidrs);
    }

    /** The ranges a ServiceCIDR's {@code spec.cidrs} give the cluster's Services. */
    public static List<RangeIndex.Hit<LearntRange>> serviceCidrs(ServiceCIDR cidr) {
        String name = cidr.getMetadata() == null ? null : cidr.getMetadata().getName();
        return LearntRange.hits("ServiceCIDR " + name, cidr.getSpec() == null || cidr.getSpec().getCidrs() == null
                ? List.of() : cidr.getSpec().getCidrs());
    }

    /** The key an object is indexed under (the informers' key: {@code namespace/name} or {@code name}). */
    public static String key(io.fabric8.kubernetes.api.model.HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? o.getMetadata().getName() : ns + "/" + o.getMetadata().getName();
    }

    /**
     * An object's labels as an unmodifiable copy, empty when it has none: what the views keep of a Namespace (who may
     * use an ExternalNetwork reads nothing else of it).
     */
    public static java.util.Map<String, String> labels(io.fabric8.kubernetes.api.model.HasMetadata o) {
        java.util.Map<String, String> l = o == null || o.getMetadata() == null ? null : o.getMetadata().getLabels();
        return l == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(new java.util.HashMap<>(l));
    }
}
