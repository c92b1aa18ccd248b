package me.loutres.juneau.admission;

import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.v1alpha1.ServiceAllocation;

/**
 * An ExternalNetwork's {@code spec.serviceAllocation} (docs/admission.md, ExternalNetwork): namespace names that
 * Kubernetes could give a Namespace, each once, and label selectors kube-apiserver would accept. A selector refused
 * here would select nothing in the rule ({@code policy/NetworkAccess}), so the network would silently shut out every
 * Service it was meant to let in.
 */
final class ServiceAllocationRules {
    static final String FIELD = "spec.serviceAllocation";
    static final String NAMESPACE_ACCEPTED = "accepted: a namespace name (a DNS-1123 label: at most 63 lowercase"
            + " letters, digits and '-', starting and ending with a letter or digit)";

    private ServiceAllocationRules() {
    }

    static void check(Verdict verdict, ServiceAllocation sa) {
        if (sa == null) {
            return;
        }
        List<String> namespaces = sa.getNamespaces() == null ? List.of() : sa.getNamespaces();
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < namespaces.size(); i++) {
            String ns = namespaces.get(i);
            String field = FIELD + ".namespaces[" + i + "]: ";
            if (!Texts.isDns1123Label(ns)) {
                verdict.problem(field + Texts.quote(ns) + " is not a namespace name; " + NAMESPACE_ACCEPTED);
                continue;
            }
            Integer j = first.putIfAbsent(ns, i);
            if (j != null) {
                verdict.problem(field + Texts.quote(ns) + " is already listed at " + FIELD + ".namespaces[" + j
                        + "]; list each namespace once");
            }
        }
        selectors(verdict, FIELD + ".namespaceSelectors", sa.getNamespaceSelectors());
        selectors(verdict, FIELD + ".serviceSelectors", sa.getServiceSelectors());
    }

    private static void selectors(Verdict verdict, String field, List<LabelSelector> selectors) {
        for (int i = 0; selectors != null && i < selectors.size(); i++) {
            LabelSelectorRules.check(verdict, field + "[" + i + "]", selectors.get(i));
        }
    }
}
