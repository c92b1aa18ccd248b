package me.loutres.juneau.selection;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import java.util.function.Function;

/**
 * Which nodes may announce one ExternalNetwork's VIPs (docs/api-reference.md, ExternalNetwork
 * {@code spec.nodeSelector}): a node must match the network's {@code spec.nodeSelector} and must not carry
 * Kubernetes' {@code node.kubernetes.io/exclude-from-external-load-balancers} label (any value, as the cloud
 * providers and MetalLB read it). A node without a Node object has no labels: it passes only an absent selector.
 */
public final class NodeEligibility {
    /** Kubernetes' own convention: a node carrying it (any value) never takes load-balancer traffic. */
    public static final String EXCLUDE_LABEL = JuneauConstants.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS;

    private static final NodeEligibility EVERY_NODE = new NodeEligibility(null, null, n -> null);

    private final String network;
    private final LabelSelector selector;
    /** A Node's labels by name; null when no Node of that name exists. */
    private final Function<String, Map<String, String>> labelsOf;

    private NodeEligibility(String network, LabelSelector selector, Function<String, Map<String, String>> labelsOf) {
        this.network = network;
        this.selector = selector;
        this.labelsOf = labelsOf;
    }

    /**
     * @param network      the ExternalNetwork's name (for messages)
     * @param selector     its {@code spec.nodeSelector}, or null for every node
     * @param labelsByNode each Node's labels by name (not copied: the caller hands over a map it no longer changes)
     */
    public static NodeEligibility of(String network, LabelSelector selector,
            Map<String, Map<String, String>> labelsByNode) {
        Map<String, Map<String, String>> m = labelsByNode == null ? Map.of() : labelsByNode;
        return new NodeEligibility(network, selector, m::get);
    }

    /** No selector and no labels known: every node may announce. */
    public static NodeEligibility everyNode() {
        return EVERY_NODE;
    }

    public boolean allows(String node) {
        return whyNot(node) == null;
    }

    /**
     * Why the node may not announce, as {@code kubectl describe} shows it after the node's name, e.g.
     * {@code excluded by node.kubernetes.io/exclude-from-external-load-balancers} or
     * {@code not selected by ExternalNetwork edge (zone In [a])}; null when it may.
     */
    public String whyNot(String node) {
        Map<String, String> labels = node == null ? null : labelsOf.apply(node);
        if (labels != null && labels.containsKey(EXCLUDE_LABEL)) {
            return "excluded by " + EXCLUDE_LABEL;
        }
        if (selector == null) {
            return null;
        }
        var problem = LabelSelectors.problem(selector);
        if (problem.isPresent()) {
            return "ExternalNetwork " + network + " has an invalid nodeSelector (" + problem.get() + ")";
        }
        if (LabelSelectors.matches(selector, labels)) {
            return null;
        }
        return "not selected by ExternalNetwork " + network + " (" + LabelSelectors.describe(selector) + ")"
                + (labels == null ? "; no Node object of this name exists" : "");
    }
}
