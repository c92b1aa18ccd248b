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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.rbac.RequestAttributes;

/**
 * Least privilege, checked both ways, for a component whose API calls a test recorded: every call is granted by its
 * RBAC manifest, and the manifest grants nothing those calls do not use. A call is read and a grant matched by the
 * same code the local API server authorizes with ({@link RequestAttributes}, {@link me.loutres.juneau.rbac.PolicyRule}).
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

        /** Whether a rule granting only this permission (in a Role of its namespace) allows the call. */
        boolean covers(RequestAttributes call) {
            return (namespace == null || namespace.equals(call.namespace()))
                    && new me.loutres.juneau.rbac.PolicyRule(List.of(verb), List.of(group), List.of(resource),
                            List.of(), List.of()).matches(call);
        }
    }

    /**
     * Asserts that {@code calls} (method and path with query, as the API server saw them) are exactly what
     * {@code rbac} grants; {@code client} only parses the manifest.
     */
    public static void assertCallsMatchGrants(String component, Path rbac, Collection<String[]> calls,
            KubernetesClient client) throws IOException {
        List<RequestAttributes> requests = calls.stream().map(c -> attributes(c[0], c[1])).toList();
        Set<Permission> used = new TreeSet<>();
        requests.forEach(r -> used.add(toPermission(r)));
        List<Permission> granted = granted(component, rbac, client);
        Set<Permission> ungranted = new TreeSet<>();
        requests.stream().filter(r -> granted.stream().noneMatch(g -> g.covers(r)))
                .forEach(r -> ungranted.add(toPermission(r)));
        List<Permission> unused = granted.stream().filter(g -> requests.stream().noneMatch(g::covers)).toList();
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

    /** What RBAC checks for a REST call (method, path and query), as the API server reads it. */
    public static RequestAttributes attributes(String method, String pathAndQuery) {
        URI uri = URI.create(pathAndQuery);
        Map<String, String> query = new HashMap<>();
        if (uri.getQuery() != null) {
            for (String pair : uri.getQuery().split("&")) {
                int eq = pair.indexOf('=');
                query.putIfAbsent(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        return RequestAttributes.of(method, uri.getPath(), query);
    }

    /** The permission a call needs: {@code core services/status update}, {@code coordination.k8s.io leases get in ns}. */
    public static Permission toPermission(RequestAttributes call) {
        return new Permission(call.apiGroup(), call.resourceAndSubresource(), call.verb(),
                call.namespace().isEmpty() ? null : call.namespace());
    }
}
