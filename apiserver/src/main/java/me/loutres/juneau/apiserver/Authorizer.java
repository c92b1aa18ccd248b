package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.rbac.PolicyRule;
import me.loutres.juneau.rbac.RbacPolicy;
import me.loutres.juneau.rbac.RbacUser;
import me.loutres.juneau.rbac.RequestAttributes;

/**
 * Authorizes every request, and answers the access reviews ({@code kubectl auth can-i}, {@code --list},
 * {@code auth whoami}), with the RBAC objects stored in this server ({@link RbacPolicy} decides; this class only
 * keeps the policy in step with the store and writes kube-apiserver's answers). The store holds kube's default roles
 * and the ClusterRoles, Roles and bindings of Juneau's manifests from the start (see {@link LocalApiServer}), and any
 * an admin applies later.
 */
final class Authorizer {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    private final Store store;
    private final List<ResourceType> rbacTypes;
    /** Changes of RBAC objects so far; the policy is rebuilt when it was built from fewer. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong(1);

    private record Built(long changes, RbacPolicy policy) {
    }

    private volatile Built built = new Built(0, RbacPolicy.of(List.of()));

    Authorizer(Store store, Registry registry) {
        this.store = store;
        this.rbacTypes = List.of("clusterroles", "roles", "clusterrolebindings", "rolebindings").stream()
                .map(p -> registry.find(RBAC_GROUP + "/v1", p).orElseThrow()).toList();
        // a changed role or binding counts from the next request on, as kube's RBAC watches them
        store.addListener(e -> {
            if (e.type().group().equals(RBAC_GROUP)) {
                changes.incrementAndGet();
            }
        });
    }

    private RbacPolicy policy() {
        Built b = built;
        if (b.changes() == changes.get()) {
            return b.policy();
        }
        synchronized (this) {
            // counted before listing: a change during the list is in it or makes the next request rebuild
            long seen = changes.get();
            if (built.changes() != seen) {
                List<JsonNode> objects = new ArrayList<>();
                for (ResourceType t : rbacTypes) {
                    objects.addAll(store.list(t, null, java.util.Map.of(), o -> true, null, 0).items());
                }
                built = new Built(seen, RbacPolicy.of(objects));
            }
            return built.policy();
        }
    }

    static RbacUser rbacUser(UserInfo user) {
        return new RbacUser(user.getUsername(), user.getGroups());
    }

    /** Refuses, with kube-apiserver's 403, a request no rule allows. */
    void authorize(UserInfo user, RequestAttributes request) throws ApiException {
        if (!policy().decide(rbacUser(user), request).allowed()) {
            throw ApiException.forbidden(request, user.getUsername());
        }
    }

    /** The answer to a SelfSubjectAccessReview body: the decision the same request would get. */
    ObjectNode review(UserInfo user, JsonNode body) {
        ObjectNode out = body.isObject() ? ((ObjectNode) body).deepCopy() : F.objectNode();
        out.put("apiVersion", "authorization.k8s.io/v1");
        out.put("kind", "SelfSubjectAccessReview");
        Json.meta(out);
        JsonNode attrs = body.path("spec").path("resourceAttributes");
        JsonNode nonResource = body.path("spec").path("nonResourceAttributes");
        RequestAttributes asked = attrs.isObject()
                ? RequestAttributes.resource(attrs.path("verb").asText(""), attrs.path("group").asText(""),
                        attrs.path("resource").asText(""), attrs.path("subresource").asText(""),
                        attrs.path("namespace").asText(""), attrs.path("name").asText(""))
                : RequestAttributes.nonResource(nonResource.path("verb").asText(""),
                        nonResource.path("path").asText(""));
        RbacPolicy.Decision decision = policy().decide(rbacUser(user), asked);
        ObjectNode status = Json.obj(out, "status");
        status.put("allowed", decision.allowed());
        if (!decision.reason().isEmpty()) {
            status.put("reason", decision.reason());
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
        for (PolicyRule r : policy().rulesFor(rbacUser(user), ns)) {
            ObjectNode o = (r.nonResourceURLs().isEmpty() ? rules : nonResource).addObject();
            o.set("verbs", Json.MAPPER.valueToTree(r.verbs()));
            if (r.nonResourceURLs().isEmpty()) {
                o.set("apiGroups", Json.MAPPER.valueToTree(r.apiGroups()));
                o.set("resources", Json.MAPPER.valueToTree(r.resources()));
                if (!r.resourceNames().isEmpty()) {
                    o.set("resourceNames", Json.MAPPER.valueToTree(r.resourceNames()));
                }
            } else {
                o.set("nonResourceURLs", Json.MAPPER.valueToTree(r.nonResourceURLs()));
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
