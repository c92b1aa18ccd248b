package me.loutres.juneau.agent.plan;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Kubernetes label selectors ({@code metav1.LabelSelector}) against a Node's labels, as the API server reads them. */
public final class Selectors {
    private Selectors() {
    }

    /** Whether {@code selector} selects {@code labels}; a null or empty selector selects everything. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                if (!matches(r, labels)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether any of {@code selectors} selects the labels; none at all selects everything (a BGPPeer's rule). */
    public static boolean anyMatches(List<LabelSelector> selectors, Map<String, String> labels) {
        return selectors == null || selectors.isEmpty() || selectors.stream().anyMatch(s -> matches(s, labels));
    }

    private static boolean matches(LabelSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (String.valueOf(r.getOperator())) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(r.getKey());
            case "DoesNotExist" -> !labels.containsKey(r.getKey());
            default -> false; // an operator the API server would not have stored selects nothing
        };
    }
}
