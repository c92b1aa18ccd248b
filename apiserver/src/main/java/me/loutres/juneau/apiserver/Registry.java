package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resources served: the built-in kinds Juneau and kubectl touch, plus one entry per served version of every
 * stored CustomResourceDefinition (added when the CRD is created, as kube-apiserver does).
 */
final class Registry {
    private final Map<String, ResourceType> byPath = new ConcurrentHashMap<>();
    private final Map<String, ResourceType> byGroupPlural = new ConcurrentHashMap<>();
    private final Map<String, List<ResourceType>> byGroupVersion = new ConcurrentHashMap<>();

    Registry() {
        var age = List.of(TableConverter.age());
        builtIn("", "v1", "namespaces", "namespace", "Namespace", false, true, List.of("ns"),
                List.of(TableConverter.col("Status", ".status.phase"), TableConverter.age()));
        builtIn("", "v1", "services", "service", "Service", true, true, List.of("svc"), TableConverter.serviceColumns());
        builtIn("", "v1", "nodes", "node", "Node", false, true, List.of("no"), TableConverter.nodeColumns());
        builtIn("", "v1", "events", "event", "Event", true, false, List.of("ev"), TableConverter.eventColumns());
        builtIn("", "v1", "pods", "pod", "Pod", true, true, List.of("po"), age);
        builtIn("", "v1", "endpoints", "endpoints", "Endpoints", true, false, List.of("ep"), age);
        builtIn("", "v1", "configmaps", "configmap", "ConfigMap", true, false, List.of("cm"), age);
        builtIn("", "v1", "secrets", "secret", "Secret", true, false, List.of(), age);
        builtIn("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true, false, List.of("sa"), age);
        builtIn("discovery.k8s.io", "v1", "endpointslices", "endpointslice", "EndpointSlice", true, false, List.of(),
                TableConverter.endpointSliceColumns());
        // the Service ranges the cluster reports (Kubernetes 1.33+); Juneau's webhook keeps VIPs out of them
        builtIn("networking.k8s.io", "v1", "servicecidrs", "servicecidr", "ServiceCIDR", false, true, List.of(),
                List.of(TableConverter.col("CIDRs", ".spec.cidrs"), TableConverter.age()));
        builtIn("coordination.k8s.io", "v1", "leases", "lease", "Lease", true, false, List.of(),
                List.of(TableConverter.col("Holder", ".spec.holderIdentity"), TableConverter.age()));
        builtIn("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition",
                "CustomResourceDefinition", false, true, List.of("crd", "crds"),
                List.of(new TableConverter.Column("Created At", "date", ".metadata.creationTimestamp", 0)));
        builtIn("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
                "validatingwebhookconfiguration", "ValidatingWebhookConfiguration", false, false, List.of(), age);
        builtIn("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
                "mutatingwebhookconfiguration", "MutatingWebhookConfiguration", false, false, List.of(), age);
        for (String kind : List.of("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding")) {
            String plural = kind.toLowerCase(java.util.Locale.ROOT) + "s";
            builtIn("rbac.authorization.k8s.io", "v1", plural, plural.substring(0, plural.length() - 1), kind,
                    kind.startsWith("Role"), false, List.of(), age);
        }
        // review kinds are create-only and never stored (handled by the authorizer)
        add(new ResourceType("authorization.k8s.io", "v1", "selfsubjectaccessreviews", "selfsubjectaccessreview",
                "SelfSubjectAccessReview", false, false, List.of(), List.of("create"), false, null, List.of()));
        add(new ResourceType("authorization.k8s.io", "v1", "selfsubjectrulesreviews", "selfsubjectrulesreview",
                "SelfSubjectRulesReview", false, false, List.of(), List.of("create"), false, null, List.of()));
        add(new ResourceType("authentication.k8s.io", "v1", "selfsubjectreviews", "selfsubjectreview",
                "SelfSubjectReview", false, false, List.of(), List.of("create"), false, null, List.of()));
    }

    private void builtIn(String group, String version, String plural, String singular, String kind,
            boolean namespaced, boolean status, List<String> shortNames, List<TableConverter.Column> columns) {
        add(new ResourceType(group, version, plural, singular, kind, namespaced, status, shortNames,
                ResourceType.ALL_VERBS, false, null, columns));
    }

    private synchronized void add(ResourceType t) {
        byPath.put(t.groupVersion() + "/" + t.plural(), t);
        byGroupPlural.putIfAbsent(t.key(), t);
        byGroupVersion.computeIfAbsent(t.groupVersion(), k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .removeIf(o -> o.plural().equals(t.plural()));
        byGroupVersion.get(t.groupVersion()).add(t);
    }

    /** Registers the served versions of a stored CRD; the first one is the storage form (no conversion). */
    synchronized List<ResourceType> addCrd(JsonNode crd) {
        JsonNode spec = crd.path("spec");
        JsonNode names = spec.path("names");
        List<ResourceType> added = new ArrayList<>();
        for (JsonNode v : spec.path("versions")) {
            if (!v.path("served").asBoolean(true)) {
                continue;
            }
            List<String> shortNames = new ArrayList<>();
            names.path("shortNames").forEach(n -> shortNames.add(n.asText()));
            ResourceType t = new ResourceType(spec.path("group").asText(), v.path("name").asText(),
                    names.path("plural").asText(), names.path("singular").asText(names.path("kind").asText()
                            .toLowerCase(java.util.Locale.ROOT)), names.path("kind").asText(),
                    "Namespaced".equals(spec.path("scope").asText()), v.path("subresources").has("status"),
                    List.copyOf(shortNames), ResourceType.ALL_VERBS, true,
                    v.path("schema").path("openAPIV3Schema"), TableConverter.crdColumns(v));
            add(t);
            added.add(t);
        }
        return added;
    }

    /** Forgets the resources of a deleted CRD. */
    synchronized void removeCrd(JsonNode crd) {
        String group = crd.path("spec").path("group").asText();
        String plural = crd.path("spec").path("names").path("plural").asText();
        byGroupPlural.remove(group + "/" + plural);
        byPath.values().removeIf(t -> t.custom() && t.group().equals(group) && t.plural().equals(plural));
        byGroupVersion.values().forEach(l -> l.removeIf(t -> t.custom() && t.group().equals(group)
                && t.plural().equals(plural)));
        byGroupVersion.values().removeIf(List::isEmpty);
    }

    Optional<ResourceType> find(String groupVersion, String plural) {
        return Optional.ofNullable(byPath.get(groupVersion + "/" + plural));
    }

    Optional<ResourceType> byGroupAndPlural(String group, String plural) {
        return Optional.ofNullable(byGroupPlural.get(group + "/" + plural));
    }

    Collection<ResourceType> all() {
        return byPath.values();
    }

    /** group/version ("v1" for core) to resources, groups in registration order. */
    Map<String, List<ResourceType>> groupVersions() {
        Map<String, List<ResourceType>> copy = new LinkedHashMap<>();
        byGroupVersion.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> copy.put(e.getKey(), List.copyOf(e.getValue())));
        return copy;
    }

    boolean servesGroupVersion(String gv) {
        return byGroupVersion.containsKey(gv);
    }
}
