package me.loutres.juneau.selection;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kubernetes' {@code metav1.LabelSelector} over a Node's labels: every {@code matchLabels} pair and every
 * {@code matchExpressions} requirement must hold ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist});
 * an absent or empty selector selects every node. A selector Kubernetes would refuse selects nothing: guessing
 * which nodes an unreadable rule meant could put a VIP on a node the operator kept away from that network.
 */
public final class LabelSelectors {
    public static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectors() {
    }

    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        if (problem(selector).isPresent()) {
            return false;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!l.containsKey(e.getKey()) || !String.valueOf(e.getValue()).equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        for (LabelSelectorRequirement r : expressions(selector)) {
            boolean has = l.containsKey(r.getKey());
            List<String> values = r.getValues() == null ? List.of() : r.getValues();
            boolean ok = switch (r.getOperator()) {
                case "In" -> has && values.contains(l.get(r.getKey()));
                case "NotIn" -> !has || !values.contains(l.get(r.getKey()));
                case "Exists" -> has;
                default -> !has; // DoesNotExist (problem() refused every other operator)
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether any of {@code selectors} selects the labels, none at all selecting every node: a BGPPeer's
     * {@code spec.nodeSelectors} (docs/api-reference.md, BGPPeer).
     */
    public static boolean anyMatches(List<LabelSelector> selectors, Map<String, String> labels) {
        return selectors == null || selectors.isEmpty() || selectors.stream().anyMatch(s -> matches(s, labels));
    }

    /**
     * The first part Kubernetes would refuse, e.g. {@code matchExpressions[0].operator "Near" is not one of In,
     * NotIn, Exists, DoesNotExist}; empty when the selector is valid (an absent one is).
     */
    public static Optional<String> problem(LabelSelector selector) {
        if (selector == null) {
            return Optional.empty();
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (e.getKey() == null || e.getKey().isBlank()) {
                    return Optional.of("matchLabels has an empty key; give each label a name");
                }
                if (e.getValue() == null) {
                    return Optional.of("matchLabels[" + e.getKey() + "] has no value; give it a value, or use"
                            + " matchExpressions with operator Exists");
                }
            }
        }
        List<LabelSelectorRequirement> exprs = selector.getMatchExpressions() == null ? List.of()
                : selector.getMatchExpressions();
        for (int i = 0; i < exprs.size(); i++) {
            LabelSelectorRequirement r = exprs.get(i);
            String at = "matchExpressions[" + i + "]";
            if (r == null) {
                return Optional.of(at + " is empty; give it a key and an operator");
            }
            if (r.getKey() == null || r.getKey().isBlank()) {
                return Optional.of(at + ".key is empty; name the label the requirement tests");
            }
            String op = r.getOperator();
            if (op == null || !OPERATORS.contains(op)) {
                return Optional.of(at + ".operator " + (op == null ? "is missing" : "\"" + op + "\" is not")
                        + " one of In, NotIn, Exists, DoesNotExist");
            }
            boolean hasValues = r.getValues() != null && !r.getValues().isEmpty();
            if ((op.equals("In") || op.equals("NotIn")) && !hasValues) {
                return Optional.of(at + " (" + r.getKey() + " " + op + ") has no values; operator " + op
                        + " needs at least one value");
            }
            if ((op.equals("Exists") || op.equals("DoesNotExist")) && hasValues) {
                return Optional.of(at + " (" + r.getKey() + " " + op + ") has values " + r.getValues()
                        + "; operator " + op + " takes none: remove them");
            }
            if (hasValues && r.getValues().stream().anyMatch(v -> v == null)) {
                return Optional.of(at + ".values has an empty entry; remove it");
            }
        }
        return Optional.empty();
    }

    /** How a person reads the selector: {@code zone In [a], rack=r1, !gpu}; {@code every node} when empty. */
    public static String describe(LabelSelector selector) {
        List<String> parts = new ArrayList<>();
        if (selector != null && selector.getMatchLabels() != null) {
            new TreeMap<>(selector.getMatchLabels()).forEach((k, v) -> parts.add(k + "=" + v));
        }
        for (LabelSelectorRequirement r : selector == null ? List.<LabelSelectorRequirement>of() : expressions(selector)) {
            switch (String.valueOf(r.getOperator())) {
                case "Exists" -> parts.add(r.getKey());
                case "DoesNotExist" -> parts.add("!" + r.getKey());
                default -> parts.add(r.getKey() + " " + r.getOperator() + " "
                        + (r.getValues() == null ? "[]" : r.getValues().toString().replace(", ", ",")));
            }
        }
        return parts.isEmpty() ? "every node" : String.join(", ", parts);
    }

    /** Every label key the selector tests: a change of another label cannot change what it selects. */
    public static Set<String> keys(LabelSelector selector) {
        Set<String> keys = new TreeSet<>();
        if (selector == null) {
            return keys;
        }
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().keySet().stream().filter(k -> k != null).forEach(keys::add);
        }
        for (LabelSelectorRequirement r : expressions(selector)) {
            if (r.getKey() != null) {
                keys.add(r.getKey());
            }
        }
        return keys;
    }

    private static List<LabelSelectorRequirement> expressions(LabelSelector s) {
        return s.getMatchExpressions() == null ? List.of()
                : s.getMatchExpressions().stream().filter(r -> r != null).toList();
    }
}
