package me.loutres.juneau.policy;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * The default ExternalNetwork (docs/api-reference.md, "The default network"): the one annotated
 * {@code juneau.loutres.me/default-network: "true"} serves managed Services without the network annotation. Pure; the
 * webhook, the controller and {@code juneau validate} choose with it.
 */
public final class DefaultNetwork {
    public static final String TRUE = "true";
    /** How the messages write the marking. */
    public static final String MARK = JuneauConstants.ANNOTATION_DEFAULT_NETWORK + ": \"true\"";

    private DefaultNetwork() {
    }

    /** Marked default: the annotation's value is exactly {@code "true"} (admission refuses anything but true/false). */
    public static boolean isDefault(ExternalNetwork network) {
        Map<String, String> a = network == null || network.getMetadata() == null ? null
                : network.getMetadata().getAnnotations();
        return a != null && TRUE.equals(a.get(JuneauConstants.ANNOTATION_DEFAULT_NETWORK));
    }

    /** The names of the networks marked default, sorted (more than one only if stored around the webhook). */
    public static List<String> defaults(Collection<ExternalNetwork> networks) {
        return networks.stream().filter(DefaultNetwork::isDefault)
                .map(n -> n.getMetadata().getName()).filter(Objects::nonNull).sorted().toList();
    }

    /**
     * The network of a managed Service: the annotation's (trimmed) when set, else the one default network.
     *
     * @param annotated the value of {@code juneau.loutres.me/load-balancer-external-network}, null when absent
     * @param networks  every ExternalNetwork of the cluster
     */
    public static NetworkChoice choose(String annotated, Collection<ExternalNetwork> networks) {
        return choose(annotated, networks, null);
    }

    /**
     * {@link #choose(String, Collection)} for a Service the default network must let in ({@link NetworkAccess}): the
     * default is chosen only among the marked networks {@code who} may use (docs/install.md, "Sharing a cluster
     * between teams").
     *
     * @param who the Service asking, or null to ignore {@code spec.serviceAllocation}
     */
    public static NetworkChoice choose(String annotated, Collection<ExternalNetwork> networks,
            NetworkAccess.Requester who) {
        String name = annotated == null ? null : annotated.trim();
        if (name != null && !name.isEmpty()) {
            return new NetworkChoice.Named(name, false);
        }
        List<ExternalNetwork> marked = networks.stream().filter(DefaultNetwork::isDefault)
                .filter(n -> n.getMetadata().getName() != null)
                .sorted(java.util.Comparator.comparing(n -> n.getMetadata().getName())).toList();
        List<ExternalNetwork> usable = who == null ? marked
                : marked.stream().filter(n -> NetworkAccess.allows(n, who)).toList();
        List<String> defaults = usable.stream().map(n -> n.getMetadata().getName()).toList();
        if (defaults.size() == 1) {
            return new NetworkChoice.Named(defaults.get(0), true);
        }
        String none = "the Service has no annotation " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK;
        if (defaults.isEmpty() && !marked.isEmpty()) {
            return new NetworkChoice.Unresolved(none + ", and " + NetworkAccess.refusal(marked.get(0), who).orElseThrow()
                    + "; set the annotation to an ExternalNetwork this Service may use", true);
        }
        if (defaults.isEmpty()) {
            return new NetworkChoice.Unresolved(none + " and no ExternalNetwork is marked " + MARK
                    + "; set the annotation to the name of an ExternalNetwork, or mark one ExternalNetwork as the default");
        }
        return new NetworkChoice.Unresolved(none + " and ExternalNetworks " + quoted(defaults) + " are all marked "
                + MARK + "; remove the annotation " + JuneauConstants.ANNOTATION_DEFAULT_NETWORK
                + " from all but one of them");
    }

    /**
     * {@link #choose(String, Collection)} for a Service whose ServiceLoadBalancer may already hold a VIP: without the
     * annotation, the network that VIP came from stays the Service's (the VIP is fixed once allocated, docs/admission.md
     * rule 8), so marking another network default later changes only Services still without a VIP.
     *
     * @param slb the Service's ServiceLoadBalancer, or null
     */
    public static NetworkChoice choose(String annotated, ServiceLoadBalancer slb, Collection<ExternalNetwork> networks) {
        return choose(annotated, slb, networks, null);
    }

    /**
     * {@link #choose(String, ServiceLoadBalancer, Collection)}, the default chosen only among the networks {@code who}
     * may use. A network the VIP came from stays the Service's even when it no longer lets the Service in: the
     * controller then says {@code NotAllowed} and keeps the VIP (docs/phases-and-conditions.md).
     */
    public static NetworkChoice choose(String annotated, ServiceLoadBalancer slb, Collection<ExternalNetwork> networks,
            NetworkAccess.Requester who) {
        boolean unannotated = annotated == null || annotated.isBlank();
        String kept = slb == null || slb.getSpec() == null ? null : slb.getSpec().getExternalNetwork();
        String vip = slb == null || slb.getStatus() == null ? null : slb.getStatus().getVip();
        if (unannotated && kept != null && !kept.isBlank() && vip != null && !vip.isBlank()) {
            return new NetworkChoice.Named(kept.trim(), true);
        }
        return choose(annotated, networks, who);
    }

    static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList());
    }
}
