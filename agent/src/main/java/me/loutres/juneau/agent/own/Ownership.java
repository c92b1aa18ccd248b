package me.loutres.juneau.agent.own;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.Ipv4;

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

    private static java.util.Optional<Claim> claim(String node, ARPAdvertisement a) {
        if (a.getMetadata() == null || a.getSpec() == null || !node.equals(a.getSpec().getNodeName())
                || a.getMetadata().getDeletionTimestamp() != null || !Ipv4.isValid(a.getSpec().getAddress())) {
            return java.util.Optional.empty();
        }
        Map<String, String> labels = a.getMetadata().getLabels() == null ? Map.of() : a.getMetadata().getLabels();
        Long generation = a.getMetadata().getGeneration();
        return java.util.Optional.of(new Claim(Ipv4.parse(a.getSpec().getAddress()), a.getMetadata().getName(),
                generation == null ? 0 : generation,
                labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAMESPACE, ""),
                labels.getOrDefault(JuneauConstants.LABEL_SERVICE_NAME, "")));
    }

    /** Advertisements labelled for this node whose spec names another: not answered, worth a log line. */
    public static java.util.List<String> mislabelled(String node, Collection<ARPAdvertisement> advertisements) {
        return advertisements.stream()
                .filter(a -> a.getSpec() != null && a.getMetadata() != null && !node.equals(a.getSpec().getNodeName()))
                .map(a -> a.getMetadata().getName()).sorted().toList();
    }
}
