package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import me.loutres.juneau.admission.AdmissionChain;
import me.loutres.juneau.admission.AdmissionRoutes;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.admission.Endpoint;

/**
 * Calls the admission webhook the way kube-apiserver does ("Dynamic Admission Control"): mutating webhooks first,
 * then validating ones, each with the object the write would produce, the stored object as {@code oldObject} and
 * the caller's identity. A denial becomes the Status kubectl prints ({@code admission webhook "<name>" denied the
 * request: ...}); a webhook that cannot be reached fails the request ({@code failurePolicy: Fail}); warnings are
 * passed back as {@code Warning} headers.
 */
final class AdmissionGate implements Admission {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final WebhookCaller webhook;
    /** The table answers the same for the same request kind: looked up once per kind, not per request. */
    private final java.util.Map<String, List<Endpoint>> routes = new java.util.concurrent.ConcurrentHashMap<>();

    AdmissionGate(WebhookCaller webhook) {
        this.webhook = webhook;
    }

    @Override
    public ObjectNode admit(String operation, ResourceType type, String subresource, String namespace, String name,
            ObjectNode object, ObjectNode old, Caller caller) throws ApiException {
        // the shared routing table: which webhooks a request reaches, mutating first (docs/admission.md)
        List<Endpoint> hooks = routes.computeIfAbsent(type.group() + "/" + type.plural() + "/" + subresource + "/"
                + operation, k -> AdmissionRoutes.forRequest(type.group(), type.plural(), subresource, operation));
        String user = caller.user() == null ? null : caller.user().getUsername();
        // the base install's webhook configurations (only classed Services reach the Service webhooks)
        AdmissionChain.Outcome outcome = AdmissionChain.run(hooks, object, old, user, ManagedServices.CLASSED,
                (hook, current) -> {
            ObjectNode review = review(operation, type, subresource, namespace, name, caller, current, old);
            JsonNode response;
            try {
                JsonNode answer = webhook.callJson(hook.path(), review);
                response = answer == null ? null : answer.get("response");
            } catch (IOException e) {
                throw ApiException.internal("failed calling webhook \"" + hook.webhookName() + "\": " + e.getMessage());
            }
            if (response == null || !response.isObject()) {
                throw ApiException.internal("webhook \"" + hook.webhookName() + "\" returned no response");
            }
            return AdmissionChain.Answer.of(response);
        });
        caller.warnings().addAll(outcome.warnings());
        if (outcome instanceof AdmissionChain.Denied d) {
            throw new ApiException(d.code(), "Forbidden", "admission webhook \"" + d.endpoint().webhookName()
                    + "\" denied the request: " + d.message(), null);
        }
        if (outcome instanceof AdmissionChain.UnusablePatch u) {
            throw ApiException.internal("webhook \"" + u.endpoint().webhookName() + "\" returned an unusable patch: "
                    + u.problem());
        }
        return (ObjectNode) ((AdmissionChain.Admitted) outcome).object();
    }

    /**
     * The AdmissionReview kube-apiserver sends, built as a JSON tree: the objects go in as they are stored (no
     * round trip through a typed model), the rest is what the fabric8 AdmissionRequest would serialize to.
     */
    static ObjectNode review(String operation, ResourceType type, String subresource, String namespace,
            String name, Caller caller, JsonNode object, JsonNode old) {
        ObjectNode review = F.objectNode();
        review.put("apiVersion", "admission.k8s.io/v1");
        review.put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", Uids.next());
        ObjectNode gvk = F.objectNode().put("group", type.group()).put("kind", type.kind())
                .put("version", type.version());
        ObjectNode gvr = F.objectNode().put("group", type.group()).put("resource", type.plural())
                .put("version", type.version());
        request.set("kind", gvk);
        request.set("requestKind", gvk.deepCopy());
        request.set("resource", gvr);
        request.set("requestResource", gvr.deepCopy());
        putIfNotNull(request, "subResource", subresource);
        putIfNotNull(request, "name", name);
        putIfNotNull(request, "namespace", type.namespaced() ? namespace : null);
        request.put("operation", operation);
        request.set("userInfo", Json.MAPPER.valueToTree(caller.user()));
        if (object != null) {
            request.set("object", object);
        }
        if (old != null) {
            request.set("oldObject", old);
        }
        request.put("dryRun", caller.dryRun());
        String optionsKind = switch (operation) {
            case "CREATE" -> "CreateOptions";
            case "UPDATE" -> "UpdateOptions";
            default -> "DeleteOptions";
        };
        request.putObject("options").put("apiVersion", "meta.k8s.io/v1").put("kind", optionsKind);
        return review;
    }

    private static void putIfNotNull(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
