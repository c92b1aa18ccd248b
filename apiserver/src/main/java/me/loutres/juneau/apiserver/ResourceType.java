package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One resource the server serves: what discovery announces, how paths and Status messages name it, and what
 * kube-apiserver's strategy for it does (status subresource, generation, strategic merge patch support).
 *
 * @param custom   served from a CustomResourceDefinition: no strategic merge patch, generation counted,
 *                 unknown fields checked against {@code schema}
 * @param schema   the CRD's openAPIV3Schema (null for built-in kinds)
 * @param columns  the printer columns of {@code kubectl get} (after Name)
 */
record ResourceType(String group, String version, String plural, String singular, String kind, boolean namespaced,
        boolean statusSubresource, List<String> shortNames, List<String> verbs, boolean custom, JsonNode schema,
        List<TableConverter.Column> columns) {

    static final List<String> ALL_VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** kube's GroupResource.String(): {@code services}, {@code serviceloadbalancers.juneau.loutres.me}. */
    String groupResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** kube's GroupKind.String(): {@code Service}, {@code ServiceLoadBalancer.juneau.loutres.me}. */
    String qualifiedKind() {
        return group.isEmpty() ? kind : kind + "." + group;
    }

    String key() {
        return group + "/" + plural;
    }

    /** Whether kube-apiserver counts {@code metadata.generation} for this kind (CRs and kinds with a spec). */
    boolean countsGeneration() {
        return custom || plural.equals("endpointslices");
    }

    /**
     * A resource is named by group, version and plural, as in its URL; the schema, columns and verbs describe it.
     * (The record's own equality hashed the whole CRD schema on every store lookup, and a CRD update would have
     * made its stored objects unreachable.)
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceType t && t.plural.equals(plural) && t.group.equals(group)
                && t.version.equals(version);
    }

    @Override
    public int hashCode() {
        return (group.hashCode() * 31 + version.hashCode()) * 31 + plural.hashCode();
    }

    String basePath() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }
}
