package me.loutres.juneau.apiserver;

import java.util.Optional;

/**
 * What a resource path names, as kube-apiserver reads it after {@code /api/v1} or {@code /apis/<group>/<version>}:
 * an optional legacy {@code watch/} prefix, {@code namespaces/<ns>/} for a namespaced kind, the plural, a name and
 * the {@code status} subresource. Pure: the registry says which kinds exist; anything else is no path (a 404).
 */
record ResourcePath(ResourceType type, String namespace, String name, String sub, boolean legacyWatch) {

    /**
     * @param segments the path split on {@code /}
     * @param from the index of the first segment after the group version
     */
    static Optional<ResourcePath> parse(Registry registry, String gv, String[] segments, int from) {
        String[] p = segments;
        int i = from;
        boolean legacyWatch = i < p.length && p[i].equals("watch");
        if (legacyWatch) {
            i++;
        }
        String namespace = null;
        String plural;
        int rest;
        if (p.length > i + 2 && p[i].equals("namespaces")
                && registry.find(gv, p[i + 2]).map(ResourceType::namespaced).orElse(false)) {
            namespace = p[i + 1];
            plural = p[i + 2];
            rest = i + 3;
        } else if (p.length > i) {
            plural = p[i];
            rest = i + 1;
        } else {
            return Optional.empty();
        }
        Optional<ResourceType> found = registry.find(gv, plural);
        if (found.isEmpty() || p.length > rest + 2) {
            return Optional.empty();
        }
        ResourceType type = found.get();
        String name = p.length > rest ? p[rest] : null;
        String sub = p.length > rest + 1 ? p[rest + 1] : null;
        if (sub != null && !(sub.equals("status") && type.statusSubresource())) {
            return Optional.empty();
        }
        if (!type.namespaced() && namespace != null) {
            return Optional.empty();
        }
        return Optional.of(new ResourcePath(type, namespace, name, sub, legacyWatch));
    }

    /** The namespace to read an object from: none for a cluster-scoped kind. */
    String objectNamespace() {
        return type.namespaced() ? namespace : null;
    }
}
