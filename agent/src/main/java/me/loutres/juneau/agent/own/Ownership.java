package me.loutres.juneau.agent.own;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.view.KubeObjects;

/**
 * Which VIPs a node owns, from the ARPAdvertisements it can see. Pure. An advertisement counts only when its
 * {@code spec.nodeName} is this node: the label selector narrows the watch, the spec is the truth (a label out of
 * step with the spec must never make two nodes answer). An object being deleted no longer counts: the controller
 * deletes an advertisement exactly when nobody may answer.
 */
public final class Ownership {
    private Ownership() {
    }

    public static SortedMap<Long, Claim> of(String node, Collection<ARPAdvertisement> advertisements) {
        SortedMap<Long, Claim> owned = new TreeMap<>();
        advertisements.stream()
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(a -> a.getMetadata() == null ? "" : String.valueOf(a.getMetadata().getName())))
                .forEach(a -> claim(node, a).ifPresent(c -> owned.putIfAbsent(c.vip(), c)));
        return owned;
    }

    /**
     * The IPv6 VIPs the node answers NDP for (docs/ndp.md), by the same rule as {@link #of}: the spec names this node
     * and the object is not being deleted.
     */
    public static SortedMap<IpAddress, Ipv6Claim> ipv6(String node, Collection<ARPAdvertisement> advertisements) {
        SortedMap<IpAddress, Ipv6Claim> owned = new TreeMap<>();
        advertisements.stream()
                .filter(Objects::nonNull)
                .sorted(Comparator.comparing(a -> a.getMetadata() == null ? "" : String.valueOf(a.getMetadata().getName())))
                .forEach(a -> {
                    if (a.getMetadata() == null || a.getSpec() == null || !node.equals(a.getSpec().getNodeName())
                            || a.getMetadata().getDeletionTimestamp() != null) {
                        return;
                    }
                    IpAddress vip = ipv6(a.getSpec().getAddress());
                    if (vip == null) {
                        return;
                    }
                    Map<String, String> labels = a.getMetadata().getLabels() == null ? Map.of()
                            : a.getMetadata().getLabels();
                    Long generation = a.getMetadata().getGeneration();
                    owned.putIfAbsent(vip, new Ipv6Claim(vip, a.getMetadata().getName(),
                            generation == null ? 0 : generation,
                            labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAMESPACE, ""),
                            labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAME, ""),
                            labels.get(JuneauConstants.LABEL_SERVICE_UID)));
                });
        return owned;
    }

    /** The text as an IPv6 address, or null (absent, IPv4, or not an address). */
    private static IpAddress ipv6(String text) {
        if (text == null || text.indexOf(':') < 0 || !IpAddress.isValid(text)) {
            return null;
        }
        IpAddress a = IpAddress.parse(text);
        return a.family() == IpFamily.IPV6 ? a : null;
    }

    /**
     * Advertisements for this node that cannot be answered although they read cleanly: no spec, or an address that
     * is neither an IPv4 address (answered by ARP) nor an IPv6 one (answered by NDP). Name to a one-line reason naming the field and value (never answered, always said).
     */
    public static SortedMap<String, String> invalid(String node, Collection<ARPAdvertisement> advertisements) {
        SortedMap<String, String> out = new TreeMap<>();
        for (ARPAdvertisement a : advertisements) {
            if (a == null || a.getMetadata() == null || a.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            String name = String.valueOf(a.getMetadata().getName());
            if (a.getSpec() == null) {
                out.put(name, "spec: missing; an ARPAdvertisement needs spec.address and spec.nodeName");
            } else if (a.getSpec().getNodeName() == null) {
                out.put(name, "spec.nodeName: missing; expected the node that answers (labelled " + node + ")");
            } else if (node.equals(a.getSpec().getNodeName()) && a.getSpec().getAddress() == null) {
                out.put(name, "spec.address: missing; expected the IPv4 address to answer for");
            } else if (node.equals(a.getSpec().getNodeName()) && !Ipv4.isValid(a.getSpec().getAddress())
                    && ipv6(a.getSpec().getAddress()) == null) {
                out.put(name, "spec.address: " + KubeObjects.quote(a.getSpec().getAddress())
                        + " is not an IPv4 address" + (a.getSpec().getAddress().indexOf(':') >= 0
                                ? " nor an IPv6 address without a zone" : ""));
            }
        }
        return out;
    }

    private static Optional<Claim> claim(String node, ARPAdvertisement a) {
        if (a.getMetadata() == null || a.getSpec() == null || !node.equals(a.getSpec().getNodeName())
                || a.getMetadata().getDeletionTimestamp() != null || !Ipv4.isValid(a.getSpec().getAddress())) {
            return Optional.empty();
        }
        Map<String, String> labels = a.getMetadata().getLabels() == null ? Map.of() : a.getMetadata().getLabels();
        Long generation = a.getMetadata().getGeneration();
        return Optional.of(new Claim(Ipv4.parse(a.getSpec().getAddress()), a.getMetadata().getName(),
                generation == null ? 0 : generation,
                labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAMESPACE, ""),
                labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAME, ""),
                labels.get(JuneauConstants.LABEL_SERVICE_UID)));
    }
}
