package me.loutres.juneau.admission;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a {@code metav1.LabelSelector} as kube-apiserver applies them to a Deployment's selector: label keys
 * and values, operators {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}, values only with the first
 * two. Each problem names the part that is wrong (docs/admission.md, ExternalNetwork and BGPPeer).
 */
final class LabelSelectorRules {
    static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");
    static final String OPERATORS_ACCEPTED = "accepted: In, NotIn, Exists, DoesNotExist";
    static final String KEY_ACCEPTED = "accepted: a label key: an optional DNS subdomain prefix and '/', then a name"
            + " of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (e.g."
            + " topology.kubernetes.io/zone)";
    static final String VALUE_ACCEPTED = "accepted: a label value: empty, or at most 63 letters, digits, '-', '_' or"
            + " '.', starting and ending with a letter or digit";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    private LabelSelectorRules() {
    }

    /** Adds a problem for each bad part of {@code selector}, whose field is {@code field}; null is no selector. */
    static void check(Verdict verdict, String field, LabelSelector selector) {
        if (selector == null) {
            return;
        }
        Map<String, String> labels = selector.getMatchLabels();
        if (labels != null) {
            for (Map.Entry<String, String> e : labels.entrySet()) {
                if (!isKey(e.getKey())) {
                    verdict.problem(field + ".matchLabels: key " + Texts.quote(e.getKey()) + " is not a valid label key; "
                            + KEY_ACCEPTED);
                } else if (!isValue(e.getValue())) {
                    verdict.problem(field + ".matchLabels[" + Texts.quote(e.getKey()) + "]: " + Texts.quote(e.getValue())
                            + " is not a valid label value; " + VALUE_ACCEPTED);
                }
            }
        }
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        if (expressions == null) {
            return;
        }
        for (int i = 0; i < expressions.size(); i++) {
            requirement(verdict, field + ".matchExpressions[" + i + "]", expressions.get(i));
        }
    }

    private static void requirement(Verdict verdict, String field, LabelSelectorRequirement r) {
        if (r.getKey() == null || r.getKey().isEmpty()) {
            verdict.problem(field + ".key: missing; " + KEY_ACCEPTED);
        } else if (!isKey(r.getKey())) {
            verdict.problem(field + ".key: " + Texts.quote(r.getKey()) + " is not a valid label key; " + KEY_ACCEPTED);
        }
        String op = r.getOperator();
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        if (op == null || op.isEmpty()) {
            verdict.problem(field + ".operator: missing; " + OPERATORS_ACCEPTED);
            return;
        }
        if (!OPERATORS.contains(op)) {
            verdict.problem(field + ".operator: " + Texts.quote(op) + " is not supported; " + OPERATORS_ACCEPTED);
            return;
        }
        boolean wantsValues = op.equals("In") || op.equals("NotIn");
        if (wantsValues && values.isEmpty()) {
            verdict.problem(field + ".values: empty with operator " + op + "; accepted: at least one value for In"
                    + " and NotIn");
        } else if (!wantsValues && !values.isEmpty()) {
            verdict.problem(field + ".values: " + Texts.list(values.stream().map(Texts::quote).toList())
                    + " given with operator " + op + "; accepted: no values for Exists and DoesNotExist");
        }
        for (int j = 0; wantsValues && j < values.size(); j++) {
            if (!isValue(values.get(j))) {
                verdict.problem(field + ".values[" + j + "]: " + Texts.quote(values.get(j))
                        + " is not a valid label value; " + VALUE_ACCEPTED);
            }
        }
    }

    /** A qualified name: {@code [prefix/]name}, the prefix a DNS-1123 subdomain. */
    static boolean isKey(String key) {
        if (key == null) {
            return false;
        }
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0 && !Texts.isDns1123Subdomain(key.substring(0, slash))) {
            return false;
        }
        return name.length() <= 63 && NAME.matcher(name).matches();
    }

    static boolean isValue(String value) {
        return value == null || value.isEmpty() || (value.length() <= 63 && NAME.matcher(value).matches());
    }
}
