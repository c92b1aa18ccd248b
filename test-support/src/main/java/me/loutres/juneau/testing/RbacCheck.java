package me.loutres.juneau.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Least privilege, checked both ways, for a component whose API calls a test recorded: every call is granted by its
 * RBAC manifest, and the manifest grants nothing those calls do not use.
 */
public final class RbacCheck {
    private RbacCheck() {
    }

    /** One permission: API group, resource[/subresource], verb, and the namespace for a Role (null: cluster). */
    public record Permission(String group, String resource, String verb, String namespace)
            implements Comparable<Permission> {
        @Override
        public int compareTo(Permission o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb
                    + (namespace == null ? "" : " in " + namespace);
        }

        boolean covers(Permission call) {
            return group.equals(call.group()) && resource.equals(call.resource()) && verb.equals(call.verb())
                    && (namespace == null || namespace.equals(call.namespace()));
        }
    }

    /**
     * Asserts that {@code calls} (method and path with query, as the API server saw them) are exactly what
     * {@code rbac} grants; {@code client} only parses the manifest.
     */
    public static void assertCallsMatchGrants(String component, Path rbac, Collection<String[]> calls,
            KubernetesClient client) throws IOException {
        Set<Permission> used = new TreeSet<>();
        calls.forEach(c -> used.add(toPermission(c[0], c[1])));
        List<Permission> granted = granted(component, rbac, client);
        List<Permission> ungranted = used.stream().filter(p -> granted.stream().noneMatch(g -> g.covers(p))).toList();
        List<Permission> unused = granted.stream().filter(g -> used.stream().noneMatch(g::covers)).toList();
        assertThat(ungranted).as("calls %s does not grant (all calls: %s)", rbac, used).isEmpty();
        assertThat(unused).as("grants of %s the %s never uses (all calls: %s)", rbac, component, used).isEmpty();
    }

    /** Every permission the ClusterRoles and Roles of the manifest grant (no resourceNames allowed). */
    public static List<Permission> granted(String component, Path rbac, KubernetesClient client) throws IOException {
        assertThat(rbac).as("the %s's RBAC manifest", component).exists();
        List<Permission> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(rbac)) {
            for (HasMetadata o : client.load(in).items()) {
                List<PolicyRule> rules = o instanceof ClusterRole cr ? cr.getRules()
                        : o instanceof Role r ? r.getRules() : List.of();
                String ns = o instanceof Role ? o.getMetadata().getNamespace() : null;
                for (PolicyRule rule : rules) {
                    assertThat(rule.getResourceNames()).as("resourceNames in %s", rule).isNullOrEmpty();
                    for (String g : rule.getApiGroups()) {
                        for (String res : rule.getResources()) {
                            for (String v : rule.getVerbs()) {
                                out.add(new Permission(g, res, v, ns));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Maps a REST call to what RBAC checks: {@code /apis/<group>/<version>[/namespaces/<ns>]/<res>[/<name>[/<sub>]]}. */
    public static Permission toPermission(String method, String pathAndQuery) {
        URI uri = URI.create(pathAndQuery);
        String[] parts = uri.getPath().replaceFirst("^/", "").split("/");
        int i;
        String group;
        if ("api".equals(parts[0])) {
            group = "";
            i = 2;
        } else {
            group = parts[1];
            i = 3;
        }
        String ns = null;
        if (parts.length > i + 2 && "namespaces".equals(parts[i])) {
            ns = parts[i + 1];
            i += 2;
        }
        String resource = parts[i];
        String name = parts.length > i + 1 ? parts[i + 1] : null;
        String sub = parts.length > i + 2 ? parts[i + 2] : null;
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        String verb = switch (method) {
            case "GET" -> query.contains("watch=true") ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> method;
        };
        return new Permission(group, sub == null ? resource : resource + "/" + sub, verb, ns);
    }
}
