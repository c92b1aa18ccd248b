package me.loutres.juneau.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/** AdmissionReviews in the shape kube-apiserver sends them (userInfo, oldObject on UPDATE/DELETE, dryRun, options). */
public final class Reviews {
    public static final ObjectMapper JSON = new ObjectMapper();
    public static final String ALICE = "alice";
    public static final String CONTROLLER = "system:serviceaccount:juneau-system:juneau-controller";
    public static final String GC = "system:serviceaccount:kube-system:generic-garbage-collector";
    public static final String NAMESPACE_CONTROLLER = "system:serviceaccount:kube-system:namespace-controller";

    private Reviews() {
    }

    /** A request builder: group "" for core kinds. */
    public static final class Builder {
        private final ObjectNode review = JSON.createObjectNode();
        private final ObjectNode request;
        public final String uid = UUID.randomUUID().toString();

        private Builder(String group, String kind, String resource, String operation) {
            review.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
            request = review.putObject("request");
            request.put("uid", uid);
            ObjectNode k = request.putObject("kind");
            k.put("group", group).put("version", group.isEmpty() ? "v1" : "v1alpha1").put("kind", kind);
            ObjectNode r = request.putObject("resource");
            r.put("group", group).put("version", group.isEmpty() ? "v1" : "v1alpha1").put("resource", resource);
            request.set("requestKind", k.deepCopy());
            request.set("requestResource", r.deepCopy());
            request.put("operation", operation);
            request.put("dryRun", false);
            String optionsKind = switch (operation) {
                case "CREATE" -> "CreateOptions";
                case "UPDATE" -> "UpdateOptions";
                default -> "DeleteOptions";
            };
            request.putObject("options").put("apiVersion", "meta.k8s.io/v1").put("kind", optionsKind);
            user(ALICE);
        }

        public Builder user(String username) {
            ObjectNode u = request.putObject("userInfo");
            u.put("username", username).put("uid", UUID.nameUUIDFromBytes(username.getBytes()).toString());
            u.putArray("groups").add("system:authenticated");
            return this;
        }

        public Builder subResource(String sub) {
            request.put("subResource", sub);
            request.put("requestSubResource", sub);
            return this;
        }

        public Builder object(String json) {
            return set("object", json);
        }

        public Builder oldObject(String json) {
            return set("oldObject", json);
        }

        private Builder set(String field, String json) {
            try {
                JsonNode node = JSON.readTree(json);
                request.set(field, node);
                if (!request.has("name") && node.at("/metadata/name").isTextual()) {
                    request.put("name", node.at("/metadata/name").asText());
                }
                if (!request.has("namespace") && node.at("/metadata/namespace").isTextual()) {
                    request.put("namespace", node.at("/metadata/namespace").asText());
                }
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
            return this;
        }

        public String json() {
            return review.toString();
        }
    }

    public static Builder service(String operation) {
        return new Builder("", "Service", "services", operation);
    }

    public static Builder custom(String kind, String plural, String operation) {
        return new Builder("juneau.loutres.me", kind, plural, operation);
    }

    /** A managed Service; {@code policy} null leaves externalTrafficPolicy out, {@code network} null leaves the annotation out. */
    public static String managedService(String name, String network, String policy, String extraAnnotations) {
        return """
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"%s","namespace":"default",
                  "uid":"6f1c2d1e-0000-4000-8000-000000000001","resourceVersion":"1234",
                  "annotations":{%s%s}},
                 "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/load-balancer",%s
                  "selector":{"app":"%s"},"ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080}],
                  "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","sessionAffinity":"None",
                  "internalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true}}
                """.formatted(name,
                network == null ? "" : "\"juneau.loutres.me/load-balancer-external-network\":\"" + network + "\"",
                extraAnnotations == null ? "" : (network == null ? "" : ",") + extraAnnotations,
                policy == null ? "" : "\"externalTrafficPolicy\":\"" + policy + "\",",
                name);
    }

    public static String serviceLoadBalancer(String name, String finalizers, String vip) {
        return """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ServiceLoadBalancer",
                 "metadata":{"name":"%s","namespace":"default","uid":"7a000000-0000-4000-8000-000000000001",
                   "resourceVersion":"77","generation":1,"finalizers":[%s],
                   "ownerReferences":[{"apiVersion":"v1","kind":"Service","name":"%s","uid":"6f1c2d1e-0000-4000-8000-000000000001","controller":true}]},
                 "spec":{"serviceRef":{"name":"%s"},"externalNetwork":"public"},
                 "status":{"phase":"Ready","vip":"%s","addressPool":"pool-bgp"}}
                """.formatted(name, finalizers, name, name, vip);
    }
}
