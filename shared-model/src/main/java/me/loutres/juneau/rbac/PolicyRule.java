package me.loutres.juneau.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One rule of a ClusterRole or Role, matched as kube-apiserver's RBAC matches it ("Using RBAC Authorization"):
 * {@code *} matches every verb, group or resource; a resource is {@code plural} or {@code plural/subresource}
 * (a {@code *} on either side of the slash matches any plural or subresource); {@code resourceNames} limit a rule to named objects (so never to a
 * create, list or watch without a name); {@code nonResourceURLs} match a path exactly or by a prefix ending in
 * {@code *}.
 */
public record PolicyRule(List<String> verbs, List<String> apiGroups, List<String> resources,
        List<String> resourceNames, List<String> nonResourceURLs) {

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    /** A rule as the object stores it ({@code rules[i]}). */
    public static PolicyRule of(JsonNode rule) {
        return new PolicyRule(texts(rule.path("verbs")), texts(rule.path("apiGroups")),
                texts(rule.path("resources")), texts(rule.path("resourceNames")),
                texts(rule.path("nonResourceURLs")));
    }

    public boolean matches(RequestAttributes request) {
        if (!(verbs.contains("*") || verbs.contains(request.verb()))) {
            return false;
        }
        if (!request.resourceRequest()) {
            return nonResourceURLs.stream().anyMatch(u -> u.equals("*") || u.equals(request.path())
                    || u.endsWith("*") && request.path().startsWith(u.substring(0, u.length() - 1)));
        }
        return (apiGroups.contains("*") || apiGroups.contains(request.apiGroup()))
                && resourceMatches(request)
                && (resourceNames.isEmpty() || resourceNames.contains(request.name()));
    }

    private boolean resourceMatches(RequestAttributes request) {
        String combined = request.resourceAndSubresource();
        for (String r : resources) {
            if (r.equals("*") || r.equals(combined)) {
                return true;
            }
            if (!request.subresource().isEmpty() && (r.equals("*/" + request.subresource())
                    || r.equals(request.resource() + "/*"))) {
                return true;
            }
        }
        return false;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
