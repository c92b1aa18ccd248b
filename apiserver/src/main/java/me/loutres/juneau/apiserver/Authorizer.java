package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers SelfSubjectAccessReviews ({@code kubectl auth can-i}) with RBAC's rules ("Using RBAC Authorization"):
 * the cluster admins ({@code system:masters}) may do anything; the service accounts of Juneau's parts may do what
 * the ClusterRoles and Roles of the shipped manifests grant them, namespaced Roles only in their namespace; every
 * authenticated user may review its own access (the {@code system:basic-user} role).
 */
final class Authorizer {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    record Rule(List<String> apiGroups, List<String> resources, List<String> verbs, List<String> resourceNames) {
        boolean matches(String verb, String group, String resource, String name) {
            return (apiGroups.contains("*") || apiGroups.contains(group))
                    && (resources.contains("*") || resources.contains(resource))
                    && (verbs.contains("*") || verbs.contains(verb))
                    && (resourceNames.isEmpty() || (name != null && resourceNames.contains(name)));
        }
    }

    record Binding(String namespace, List<JsonNode> subjects, List<Rule> rules) {
    }

    private final List<Binding> bindings = new ArrayList<>();

    Authorizer() {
        Map<String, List<Rule>> roles = new HashMap<>();
        List<JsonNode> bindingDocs = new ArrayList<>();
        for (String part : List.of("controller", "webhook", "agent")) {
            try (InputStream in = Authorizer.class.getResourceAsStream("rbac/" + part + "/rbac.yaml")) {
                if (in == null) {
                    continue;
                }
                MappingIterator<JsonNode> docs = Json.YAML.readerFor(JsonNode.class).readValues(in);
                while (docs.hasNext()) {
                    JsonNode d = docs.next();
                    String kind = d.path("kind").asText();
                    String ns = d.path("metadata").path("namespace").asText("");
                    if (kind.equals("ClusterRole") || kind.equals("Role")) {
                        List<Rule> rules = new ArrayList<>();
                        for (JsonNode r : d.path("rules")) {
                            rules.add(new Rule(texts(r.path("apiGroups")), texts(r.path("resources")),
                                    texts(r.path("verbs")), texts(r.path("resourceNames"))));
                        }
                        roles.put(kind + "/" + ns + "/" + d.path("metadata").path("name").asText(), rules);
                    } else if (kind.equals("ClusterRoleBinding") || kind.equals("RoleBinding")) {
                        bindingDocs.add(d);
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot read the packaged RBAC of " + part, e);
            }
        }
        for (JsonNode b : bindingDocs) {
            String ns = b.path("kind").asText().equals("RoleBinding") ? b.path("metadata").path("namespace").asText()
                    : null;
            String roleKind = b.path("roleRef").path("kind").asText();
            String roleNs = roleKind.equals("Role") ? ns : "";
            List<Rule> rules = roles.getOrDefault(roleKind + "/" + roleNs + "/" + b.path("roleRef").path("name")
                    .asText(), List.of());
            List<JsonNode> subjects = new ArrayList<>();
            b.path("subjects").forEach(subjects::add);
            bindings.add(new Binding(ns, subjects, rules));
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static boolean subjectMatches(JsonNode s, UserInfo user) {
        String kind = s.path("kind").asText();
        List<String> groups = user.getGroups() == null ? List.of() : user.getGroups();
        return switch (kind) {
            case "ServiceAccount" -> user.getUsername().equals("system:serviceaccount:"
                    + s.path("namespace").asText() + ":" + s.path("name").asText());
            case "User" -> user.getUsername().equals(s.path("name").asText());
            case "Group" -> groups.contains(s.path("name").asText());
            default -> false;
        };
    }

    boolean allowed(UserInfo user, String verb, String group, String resource, String subresource, String namespace,
            String name) {
        List<String> groups = user.getGroups() == null ? List.of() : user.getGroups();
        if (groups.contains("system:masters")) {
            return true;
        }
        if (groups.contains("system:authenticated") && verb.equals("create") && (resource.startsWith("selfsubject"))) {
            return true;
        }
        String res = subresource == null || subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (Binding b : bindings) {
            if (b.namespace() != null && !b.namespace().equals(namespace)) {
                continue;
            }
            if (b.subjects().stream().noneMatch(s -> subjectMatches(s, user))) {
                continue;
            }
            for (Rule r : b.rules()) {
                if (r.matches(verb, group, res, name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The answer to a SelfSubjectAccessReview body. */
    ObjectNode review(UserInfo user, JsonNode body) {
        ObjectNode out = body.isObject() ? ((ObjectNode) body).deepCopy() : F.objectNode();
        out.put("apiVersion", "authorization.k8s.io/v1");
        out.put("kind", "SelfSubjectAccessReview");
        Json.meta(out);
        JsonNode attrs = body.path("spec").path("resourceAttributes");
        boolean allowed;
        String reason;
        if (attrs.isObject()) {
            allowed = allowed(user, attrs.path("verb").asText(""), attrs.path("group").asText(""),
                    attrs.path("resource").asText(""), attrs.path("subresource").asText(""),
                    attrs.path("namespace").asText(""), attrs.path("name").asText(null));
        } else {
            List<String> groups = user.getGroups() == null ? List.of() : user.getGroups();
            allowed = groups.contains("system:masters");
        }
        reason = allowed ? (user.getGroups() != null && user.getGroups().contains("system:masters")
                ? "the local API server's admin identity (group system:masters)"
                : "allowed by the RBAC of Juneau's manifests") : "";
        ObjectNode status = Json.obj(out, "status");
        status.put("allowed", allowed);
        if (!reason.isEmpty()) {
            status.put("reason", reason);
        }
        return out;
    }

    /** {@code kubectl auth can-i --list}: the rules that apply to the user in a namespace. */
    ObjectNode rulesReview(UserInfo user, JsonNode body) {
        ObjectNode out = body.isObject() ? ((ObjectNode) body).deepCopy() : F.objectNode();
        out.put("apiVersion", "authorization.k8s.io/v1");
        out.put("kind", "SelfSubjectRulesReview");
        Json.meta(out);
        String ns = body.path("spec").path("namespace").asText("");
        ObjectNode status = Json.obj(out, "status");
        ArrayNode rules = status.putArray("resourceRules");
        ArrayNode nonResource = status.putArray("nonResourceRules");
        status.put("incomplete", false);
        List<String> groups = user.getGroups() == null ? List.of() : user.getGroups();
        if (groups.contains("system:masters")) {
            rules.addObject().set("verbs", F.arrayNode().add("*"));
            ((ObjectNode) rules.get(0)).set("apiGroups", F.arrayNode().add("*"));
            ((ObjectNode) rules.get(0)).set("resources", F.arrayNode().add("*"));
            nonResource.addObject().set("verbs", F.arrayNode().add("*"));
            ((ObjectNode) nonResource.get(0)).set("nonResourceURLs", F.arrayNode().add("*"));
            return out;
        }
        ObjectNode basic = rules.addObject();
        basic.set("verbs", F.arrayNode().add("create"));
        basic.set("apiGroups", F.arrayNode().add("authorization.k8s.io"));
        basic.set("resources", F.arrayNode().add("selfsubjectaccessreviews").add("selfsubjectrulesreviews"));
        for (Binding b : bindings) {
            if ((b.namespace() == null || b.namespace().equals(ns))
                    && b.subjects().stream().anyMatch(s -> subjectMatches(s, user))) {
                for (Rule r : b.rules()) {
                    ObjectNode o = rules.addObject();
                    o.set("verbs", Json.MAPPER.valueToTree(r.verbs()));
                    o.set("apiGroups", Json.MAPPER.valueToTree(r.apiGroups()));
                    o.set("resources", Json.MAPPER.valueToTree(r.resources()));
                    if (!r.resourceNames().isEmpty()) {
                        o.set("resourceNames", Json.MAPPER.valueToTree(r.resourceNames()));
                    }
                }
            }
        }
        return out;
    }

    /** {@code kubectl auth whoami}. */
    static ObjectNode whoAmI(UserInfo user) {
        ObjectNode out = F.objectNode();
        out.put("apiVersion", "authentication.k8s.io/v1");
        out.put("kind", "SelfSubjectReview");
        out.putObject("metadata");
        out.putObject("status").set("userInfo", Json.MAPPER.valueToTree(user));
        return out;
    }
}
