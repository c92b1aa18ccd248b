package me.loutres.juneau.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The RBAC objects of a cluster (ClusterRoles, Roles, ClusterRoleBindings, RoleBindings) and the decisions
 * kube-apiserver's RBAC authorizer takes from them: a ClusterRoleBinding grants its role everywhere (resource and
 * non-resource requests), a RoleBinding grants its Role, or a ClusterRole's resource rules, in its own namespace only;
 * subjects are users, groups and service accounts ({@code system:serviceaccount:<ns>:<name>}; a RoleBinding's
 * service account without a namespace is in the binding's). Nothing is allowed that no rule allows. Pure: built from
 * the objects' JSON, it answers without I/O; a binding whose role does not exist grants nothing, as in a cluster.
 */
public final class RbacPolicy {
    /** A binding resolved to its rules. {@code namespace} is empty for a ClusterRoleBinding. */
    private record Grant(String namespace, String description, List<JsonNode> subjects, List<PolicyRule> rules) {
    }

    /** Allowed or not, and why (kube's words: the binding and role that allowed it). */
    public record Decision(boolean allowed, String reason) {
    }

    private final List<Grant> grants;

    private RbacPolicy(List<Grant> grants) {
        this.grants = grants;
    }

    /** The policy of these objects; other kinds are ignored. */
    public static RbacPolicy of(Iterable<? extends JsonNode> objects) {
        Map<String, List<PolicyRule>> roles = new HashMap<>();
        List<JsonNode> bindings = new ArrayList<>();
        for (JsonNode o : objects) {
            String kind = o.path("kind").asText();
            if (kind.equals("ClusterRole") || kind.equals("Role")) {
                List<PolicyRule> rules = new ArrayList<>();
                o.path("rules").forEach(r -> rules.add(PolicyRule.of(r)));
                roles.put(roleKey(kind, namespaceOf(o, kind), o.path("metadata").path("name").asText()), rules);
            } else if (kind.equals("ClusterRoleBinding") || kind.equals("RoleBinding")) {
                bindings.add(o);
            }
        }
        List<Grant> grants = new ArrayList<>();
        for (JsonNode b : bindings) {
            String kind = b.path("kind").asText();
            String ns = namespaceOf(b, kind);
            String roleKind = b.path("roleRef").path("kind").asText();
            String roleName = b.path("roleRef").path("name").asText();
            List<PolicyRule> rules = roles.getOrDefault(roleKey(roleKind, roleKind.equals("Role") ? ns : "",
                    roleName), List.of());
            if (kind.equals("RoleBinding")) {
                // a namespace has no non-resource URLs: those rules count only through ClusterRoleBindings
                rules = rules.stream().filter(r -> r.nonResourceURLs().isEmpty()).toList();
            }
            String bindingName = b.path("metadata").path("name").asText() + (ns.isEmpty() ? "" : "/" + ns);
            List<JsonNode> subjects = new ArrayList<>();
            b.path("subjects").forEach(subjects::add);
            grants.add(new Grant(ns, kind + " \"" + bindingName + "\" of " + roleKind + " \"" + roleName + "\"",
                    subjects, rules));
        }
        return new RbacPolicy(List.copyOf(grants));
    }

    private static String namespaceOf(JsonNode o, String kind) {
        return kind.startsWith("Cluster") ? "" : o.path("metadata").path("namespace").asText("");
    }

    private static String roleKey(String kind, String namespace, String name) {
        return kind + "/" + namespace + "/" + name;
    }

    public Decision decide(RbacUser user, RequestAttributes request) {
        for (Grant g : grants) {
            if (!g.namespace().isEmpty() && !(request.resourceRequest() && g.namespace().equals(request.namespace()))) {
                continue;
            }
            Optional<String> subject = subjectOf(g, user);
            if (subject.isPresent() && g.rules().stream().anyMatch(r -> r.matches(request))) {
                return new Decision(true, "RBAC: allowed by " + g.description() + " to " + subject.get());
            }
        }
        return new Decision(false, "");
    }

    /** The rules that apply to the user in a namespace ({@code kubectl auth can-i --list}). */
    public List<PolicyRule> rulesFor(RbacUser user, String namespace) {
        List<PolicyRule> out = new ArrayList<>();
        for (Grant g : grants) {
            if ((g.namespace().isEmpty() || g.namespace().equals(namespace)) && subjectOf(g, user).isPresent()) {
                out.addAll(g.rules());
            }
        }
        return out;
    }

    /** The first subject of the grant that is the user, in kube's words ({@code Group "system:masters"}). */
    private static Optional<String> subjectOf(Grant g, RbacUser user) {
        for (JsonNode s : g.subjects()) {
            String name = s.path("name").asText();
            switch (s.path("kind").asText()) {
                case "User" -> {
                    if (name.equals(user.name())) {
                        return Optional.of("User \"" + name + "\"");
                    }
                }
                case "Group" -> {
                    if (user.inGroup(name)) {
                        return Optional.of("Group \"" + name + "\"");
                    }
                }
                case "ServiceAccount" -> {
                    String ns = s.path("namespace").asText("").isEmpty() ? g.namespace()
                            : s.path("namespace").asText();
                    if (user.name().equals("system:serviceaccount:" + ns + ":" + name)) {
                        return Optional.of("ServiceAccount \"" + name + "/" + ns + "\"");
                    }
                }
                default -> {
                    // an unknown subject kind names nobody
                }
            }
        }
        return Optional.empty();
    }
}
