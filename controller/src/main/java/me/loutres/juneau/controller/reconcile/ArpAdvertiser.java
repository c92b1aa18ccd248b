package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.runtime.Term;
import me.loutres.juneau.election.ArpElection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the one ARPAdvertisement of a Service in line with the election (SPEC §3.4): create it, move it by
 * changing only {@code spec.nodeName} (same object, same uid), delete it when no node may answer. The current
 * node is read from the existing advertisement, so stickiness survives restarts and leader changes.
 */
final class ArpAdvertiser {
    private static final Logger LOG = LoggerFactory.getLogger(ArpAdvertiser.class);

    private final KubeWriter writer;

    ArpAdvertiser(KubeWriter writer) {
        this.writer = writer;
    }

    /** True when the advertisement of that name was made for this Service (its labels point back to it). */
    static boolean belongsTo(ARPAdvertisement arp, ServiceKey key) {
        Map<String, String> l = arp.getMetadata().getLabels();
        return l != null && key.namespace().equals(l.get(JuneauConstants.LABEL_SERVICE_NAMESPACE))
                && key.name().equals(l.get(JuneauConstants.LABEL_SERVICE_NAME));
    }

    /** Who the labels of a colliding advertisement point to, for the message. */
    static String ownerOf(ARPAdvertisement arp) {
        Map<String, String> l = arp.getMetadata().getLabels();
        if (l == null || l.get(JuneauConstants.LABEL_SERVICE_NAME) == null) {
            return "no Service (it has no " + JuneauConstants.LABEL_SERVICE_NAME + " label)";
        }
        return "Service " + l.get(JuneauConstants.LABEL_SERVICE_NAMESPACE) + "/" + l.get(JuneauConstants.LABEL_SERVICE_NAME);
    }

    /**
     * Elects and writes. {@code existing} must belong to the Service (or be null).
     *
     * @return the node now announcing the VIP, or null when none may
     */
    String ensure(Term term, ServiceKey key, ARPAdvertisement existing, String network, String vip,
            List<String> nodes) {
        ARPAdvertisement arp = existing;
        if (arp != null && arp.getSpec() != null
                && (!vip.equals(arp.getSpec().getAddress()) || !network.equals(arp.getSpec().getExternalNetwork()))) {
            // address and network are immutable: an advertisement left from another VIP is replaced, not edited
            LOG.info("{}: replacing ARPAdvertisement {} made for {} in {}", key, arp.getMetadata().getName(),
                    arp.getSpec().getAddress(), arp.getSpec().getExternalNetwork());
            writer.deleteArpAdvertisement(term, arp);
            arp = null;
        }
        String current = arp == null || arp.getSpec() == null ? null : arp.getSpec().getNodeName();
        Optional<String> elected = ArpElection.elect(vip, nodes, current);
        if (elected.isEmpty()) {
            if (arp != null) {
                writer.deleteArpAdvertisement(term, arp);
            }
            return null;
        }
        String node = elected.get();
        if (arp == null) {
            ARPAdvertisement created = new ARPAdvertisement();
            created.setMetadata(new ObjectMetaBuilder()
                    .withName(JuneauConstants.arpAdvertisementName(key.namespace(), key.name()))
                    .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, key.namespace())
                    .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, key.name())
                    .build());
            created.setSpec(new ARPAdvertisementSpec(network, vip, node));
            writer.createArpAdvertisement(term, created);
        } else if (!Objects.equals(node, current)) {
            writer.moveArpAdvertisement(term, arp, node);
        }
        return node;
    }

    void remove(Term term, ARPAdvertisement arp) {
        writer.deleteArpAdvertisement(term, arp);
    }
}
