package me.loutres.juneau.policy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceAllocation;
import me.loutres.juneau.selection.LabelSelectors;

/**
 * Who may use an ExternalNetwork (docs/api-reference.md, ExternalNetwork {@code spec.serviceAllocation}; docs/install.md,
 * "Sharing a cluster between teams"): the one rule the webhook, the controller and {@code juneau validate} ask, so
 * they cannot disagree. A Service may use the network when
 * <ul>
 * <li>its namespace is listed in {@code namespaces} or selected by one of {@code namespaceSelectors}, when either
 * list is set (a namespace named there or labelled so: MetalLB's reading of the same fields), and</li>
 * <li>the Service itself is selected by one of {@code serviceSelectors}, when that list is set.</li>
 * </ul>
 * An absent or empty list restricts nothing, as an absent {@code nodeSelectors} does; no {@code serviceAllocation}
 * is every Service. A selector Kubernetes would refuse selects nothing (admission refuses it on the network; one
 * stored around the webhook must not open the network to everyone). Pure: the caller reads the labels.
 */
public final class NetworkAccess {

    private NetworkAccess() {
    }

    /**
     * What the rule reads of one Service.
     *
     * @param namespace       the Service's namespace
     * @param service         the Service's name (for the message)
     * @param namespaceLabels the Namespace's labels; null when the reader does not know that Namespace, which no
     *                        namespace selector then selects (fail closed: its labels may be anything)
     * @param serviceLabels   the Service's labels; null is none
     */
    public record Requester(String namespace, String service, Map<String, String> namespaceLabels,
            Map<String, String> serviceLabels) {
        public Requester {
            serviceLabels = serviceLabels == null ? Map.of() : serviceLabels;
        }
    }

    /** True when the network lets {@code who} use it (a null {@code who} is not judged). */
    public static boolean allows(ExternalNetwork network, Requester who) {
        return refusal(network, who).isEmpty();
    }

    /**
     * Why {@code who} may not use the network, e.g. {@code namespace team-b may not use ExternalNetwork public: it
     * allows namespaces team-a, or namespaces labelled tenant=gold}; empty when it may.
     */
    public static Optional<String> refusal(ExternalNetwork network, Requester who) {
        ServiceAllocation sa = of(network);
        if (sa == null || who == null) {
            // no requester: a caller that does not judge who asks (an object being deleted, DefaultNetwork without one)
            return Optional.empty();
        }
        String name = network.getMetadata() == null ? null : network.getMetadata().getName();
        List<String> names = list(sa.getNamespaces());
        List<LabelSelector> nsSelectors = list(sa.getNamespaceSelectors());
        List<LabelSelector> svcSelectors = list(sa.getServiceSelectors());
        if (!(names.isEmpty() && nsSelectors.isEmpty()) && !names.contains(who.namespace())
                && nsSelectors.stream().noneMatch(s -> who.namespaceLabels() != null
                        && LabelSelectors.matches(s, who.namespaceLabels()))) {
            String unknown = who.namespaceLabels() == null && !nsSelectors.isEmpty()
                    ? " (Namespace " + who.namespace() + " is not known here, so no namespace selector selects it)"
                    : "";
            return Optional.of("namespace " + who.namespace() + " may not use ExternalNetwork " + name + ": it allows "
                    + whoMay(sa) + unknown);
        }
        if (!svcSelectors.isEmpty() && svcSelectors.stream().noneMatch(s -> LabelSelectors.matches(s, who.serviceLabels()))) {
            return Optional.of("Service " + who.namespace() + "/" + who.service() + " may not use ExternalNetwork " + name
                    + ": it allows " + whoMay(sa));
        }
        return Optional.empty();
    }

    /** True when the network restricts who may use it (a non-empty list in {@code spec.serviceAllocation}). */
    public static boolean restricts(ExternalNetwork network) {
        ServiceAllocation sa = of(network);
        return sa != null && !(list(sa.getNamespaces()).isEmpty() && list(sa.getNamespaceSelectors()).isEmpty()
                && list(sa.getServiceSelectors()).isEmpty());
    }

    /**
     * The Namespace label keys the network's namespace selectors test: a change of another label of a Namespace
     * cannot change which of its Services may use the network (the controller's index).
     */
    public static Set<String> namespaceLabelKeys(ExternalNetwork network) {
        Set<String> keys = new TreeSet<>();
        ServiceAllocation sa = of(network);
        if (sa != null) {
            list(sa.getNamespaceSelectors()).forEach(s -> keys.addAll(LabelSelectors.keys(s)));
        }
        return keys;
    }

    /** Who may use the network, as the refusal says it: {@code namespaces team-a, or namespaces labelled tenant=gold}. */
    public static String whoMay(ExternalNetwork network) {
        ServiceAllocation sa = of(network);
        return sa == null || !restricts(network) ? "every Service" : whoMay(sa);
    }

    private static String whoMay(ServiceAllocation sa) {
        List<String> ns = new ArrayList<>();
        List<String> names = list(sa.getNamespaces());
        if (!names.isEmpty()) {
            ns.add((names.size() == 1 ? "namespace " : "namespaces ") + String.join(", ", names));
        }
        list(sa.getNamespaceSelectors()).forEach(s -> ns.add(labelled("namespaces", s)));
        List<String> svc = list(sa.getServiceSelectors()).stream().map(s -> labelled("Services", s)).toList();
        if (ns.isEmpty()) {
            return "only " + String.join(", or ", svc);
        }
        return String.join(", or ", ns) + (svc.isEmpty() ? "" : ", and there only " + String.join(", or ", svc));
    }

    private static String labelled(String what, LabelSelector s) {
        boolean empty = (s.getMatchLabels() == null || s.getMatchLabels().isEmpty())
                && (s.getMatchExpressions() == null || s.getMatchExpressions().isEmpty());
        return empty ? "all " + what : what + " labelled " + LabelSelectors.describe(s);
    }

    private static ServiceAllocation of(ExternalNetwork network) {
        return network == null || network.getSpec() == null ? null : network.getSpec().getServiceAllocation();
    }

    /** The list without null entries (a damaged read); null is empty. */
    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l.stream().filter(java.util.Objects::nonNull).toList();
    }
}
