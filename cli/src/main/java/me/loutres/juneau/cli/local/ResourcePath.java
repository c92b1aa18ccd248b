package me.loutres.juneau.cli.local;

import java.util.Optional;

/**
 * A parsed API path: {@code /api/v1/namespaces/ns/services/web/status} or
 * {@code /apis/juneau.loutres.me/v1alpha1/addresspools/pool-a}.
 */
record ResourcePath(String group, String version, String namespace, String resource, String name,
        String subresource) {

    String groupVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The path of the object itself, without subresource or query. */
    String objectPath() {
        StringBuilder sb = new StringBuilder(group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version);
        if (namespace != null) {
            sb.append("/namespaces/").append(namespace);
        }
        sb.append('/').append(resource);
        if (name != null) {
            sb.append('/').append(name);
        }
        return sb.toString();
    }

    static Optional<ResourcePath> parse(String rawPath) {
        String path = rawPath;
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        String[] p = path.split("/");
        // p[0] is "" because the path starts with '/'
        int i;
        String group;
        String version;
        if (p.length >= 4 && p[1].equals("api")) {
            group = "";
            version = p[2];
            i = 3;
        } else if (p.length >= 5 && p[1].equals("apis")) {
            group = p[2];
            version = p[3];
            i = 4;
        } else {
            return Optional.empty();
        }
        String namespace = null;
        if (p.length > i + 2 && p[i].equals("namespaces")) {
            namespace = p[i + 1];
            i += 2;
        } else if (p.length == i + 2 && p[i].equals("namespaces")) {
            // /api/v1/namespaces/<name> is the Namespace object itself
            return Optional.of(new ResourcePath(group, version, null, "namespaces", p[i + 1], null));
        }
        if (p.length <= i) {
            return Optional.empty();
        }
        String resource = p[i];
        String name = p.length > i + 1 ? p[i + 1] : null;
        String sub = p.length > i + 2 ? p[i + 2] : null;
        return Optional.of(new ResourcePath(group, version, namespace, resource, name, sub));
    }
}
