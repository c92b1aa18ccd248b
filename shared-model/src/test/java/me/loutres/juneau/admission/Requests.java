package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.util.UUID;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.YamlDocuments;

/**
 * AdmissionRequests in the shape kube-apiserver sends them: the review is written as JSON (uid, kind, resource,
 * requestKind, requestResource, subResource, name, namespace, operation, userInfo, object, oldObject, dryRun,
 * options) and decoded by fabric8 exactly as the webhook servlet decodes a request body.
 */
final class Requests {
    static final String USER = "alice";
    static final String CONTROLLER = JuneauConstants.DEFAULT_CONTROLLER_USERNAME;

    private final ObjectNode request = KubeObjects.mapper().createObjectNode();

    private Requests(String operation, String group, String kind, String resource) {
        request.put("uid", UUID.randomUUID().toString());
        ObjectNode k = request.putObject("kind");
        k.put("group", group).put("version", group.isEmpty() ? "v1" : JuneauConstants.VERSION).put("kind", kind);
        ObjectNode r = request.putObject("resource");
        r.put("group", group).put("version", group.isEmpty() ? "v1" : JuneauConstants.VERSION).put("resource", resource);
        request.set("requestKind", k.deepCopy());
        request.set("requestResource", r.deepCopy());
        request.put("operation", operation);
        request.put("dryRun", false);
        user(USER);
        ObjectNode options = request.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", switch (operation) {
            case "CREATE" -> "CreateOptions";
            case "UPDATE" -> "UpdateOptions";
            default -> "DeleteOptions";
        });
        if ("DELETE".equals(operation)) {
            options.put("propagationPolicy", "Background");
        } else {
            options.put("fieldManager", "kubectl-client-side-apply");
        }
    }

    static Requests service(String operation) {
        return new Requests(operation, "", "Service", "services");
    }

    static Requests custom(String operation, String kind, String plural) {
        return new Requests(operation, JuneauConstants.GROUP, kind, plural);
    }

    static Requests pool(String operation) {
        return custom(operation, JuneauConstants.KIND_ADDRESS_POOL, JuneauConstants.PLURAL_ADDRESS_POOLS);
    }

    static Requests network(String operation) {
        return custom(operation, JuneauConstants.KIND_EXTERNAL_NETWORK, JuneauConstants.PLURAL_EXTERNAL_NETWORKS);
    }

    static Requests slb(String operation) {
        return custom(operation, JuneauConstants.KIND_SERVICE_LOAD_BALANCER, JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS);
    }

    static Requests arp(String operation) {
        return custom(operation, JuneauConstants.KIND_ARP_ADVERTISEMENT, JuneauConstants.PLURAL_ARP_ADVERTISEMENTS);
    }

    Requests user(String username) {
        ObjectNode u = request.putObject("userInfo");
        u.put("username", username);
        u.put("uid", UUID.nameUUIDFromBytes(username.getBytes()).toString());
        ArrayNode groups = u.putArray("groups");
        if (username.startsWith("system:serviceaccount:")) {
            groups.add("system:serviceaccounts");
            groups.add("system:serviceaccounts:" + username.split(":")[2]);
        }
        groups.add("system:authenticated");
        return this;
    }

    static Requests peer(String operation) {
        return custom(operation, JuneauConstants.KIND_BGP_PEER, JuneauConstants.PLURAL_BGP_PEERS);
    }

    static Requests bfdProfile(String operation) {
        return custom(operation, JuneauConstants.KIND_BFD_PROFILE, JuneauConstants.PLURAL_BFD_PROFILES);
    }

    static Requests session(String operation) {
        return custom(operation, JuneauConstants.KIND_BGP_SESSION, JuneauConstants.PLURAL_BGP_SESSIONS);
    }

    static Requests nodeNetwork(String operation) {
        return custom(operation, JuneauConstants.KIND_NODE_NETWORK, JuneauConstants.PLURAL_NODE_NETWORKS);
    }

    /** userInfo.extra["authentication.kubernetes.io/node-name"], as a bound service-account token carries it. */
    Requests nodeNameExtra(String... nodes) {
        var values = ((ObjectNode) request.get("userInfo")).putObject("extra").putArray(Review.NODE_NAME_EXTRA);
        for (String node : nodes) {
            values.add(node);
        }
        return this;
    }

    Requests subResource(String sub) {
        request.put("subResource", sub);
        request.put("requestSubResource", sub);
        return this;
    }

    Requests dryRun() {
        request.put("dryRun", true);
        return this;
    }

    /** The new object, YAML text; name and namespace of the request follow it. */
    Requests object(String yaml) {
        JsonNode o = yaml(yaml);
        request.set("object", o);
        naming(o);
        return this;
    }

    Requests oldObject(String yaml) {
        JsonNode o = yaml(yaml);
        request.set("oldObject", o);
        naming(o);
        return this;
    }

    Requests set(String field, JsonNode value) {
        request.set(field, value);
        return this;
    }

    Requests remove(String field) {
        request.remove(field);
        return this;
    }

    private void naming(JsonNode o) {
        JsonNode meta = o.path("metadata");
        if (meta.hasNonNull("name")) {
            request.put("name", meta.get("name").asText());
        }
        if (meta.hasNonNull("namespace")) {
            request.put("namespace", meta.get("namespace").asText());
        }
    }

    static JsonNode yaml(String yaml) {
        try {
            return YamlDocuments.parse(java.nio.file.Path.of("test.yaml"), yaml).get(0).content();
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Decoded the way the webhook decodes a body: a whole AdmissionReview through fabric8's mapper. */
    AdmissionRequest build() {
        ObjectNode review = KubeObjects.mapper().createObjectNode();
        review.put("apiVersion", "admission.k8s.io/v1");
        review.put("kind", "AdmissionReview");
        review.set("request", request);
        try {
            return KubeObjects.mapper().treeToValue(review, AdmissionReview.class).getRequest();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public String toString() {
        return request.path("operation").asText() + " " + request.path("resource").path("resource").asText();
    }
}
