package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import me.loutres.juneau.admission.AdmissionRoutes;
import me.loutres.juneau.admission.Endpoint;

/**
 * Calls the admission webhook the way kube-apiserver does ("Dynamic Admission Control"): mutating webhooks first,
 * then validating ones, each with the object the write would produce, the stored object as {@code oldObject} and
 * the caller's identity. A denial becomes the Status kubectl prints ({@code admission webhook "<name>" denied the
 * request: ...}); a webhook that cannot be reached fails the request ({@code failurePolicy: Fail}); warnings are
 * passed back as {@code Warning} headers.
 */
final class AdmissionGate implements Admission {

    private final WebhookCaller webhook;

    AdmissionGate(WebhookCaller webhook) {
        this.webhook = webhook;
    }

    @Override
    public ObjectNode admit(String operation, ResourceType type, String subresource, String namespace, String name,
            ObjectNode object, ObjectNode old, Caller caller) throws ApiException {
        // the shared routing table: which webhooks a request reaches, mutating first (SPEC 2.7)
        List<Endpoint> hooks = AdmissionRoutes.forRequest(type.group(), type.plural(), subresource, operation);
        ObjectNode current = object;
        for (Endpoint hook : hooks) {
            if (!hook.reach().test(current) && !hook.reach().test(old)) {
                continue; // the matchConditions keep other objects (e.g. unmanaged Services) away
            }
            AdmissionReview review = review(operation, type, subresource, namespace, name, caller, current, old);
            AdmissionResponse response;
            try {
                AdmissionReview answer = webhook.call(hook.path(), review);
                response = answer == null ? null : answer.getResponse();
            } catch (IOException e) {
                throw ApiException.internal("failed calling webhook \"" + hook.webhookName() + "\": " + e.getMessage());
            }
            if (response == null) {
                throw ApiException.internal("webhook \"" + hook.webhookName() + "\" returned no response");
            }
            if (response.getWarnings() != null) {
                caller.warnings().addAll(response.getWarnings());
            }
            if (!Boolean.TRUE.equals(response.getAllowed())) {
                String message = response.getStatus() == null || response.getStatus().getMessage() == null ? ""
                        : response.getStatus().getMessage();
                int code = response.getStatus() == null || response.getStatus().getCode() == null ? 403
                        : response.getStatus().getCode();
                throw new ApiException(code, "Forbidden", "admission webhook \"" + hook.webhookName()
                        + "\" denied the request: " + message, null);
            }
            if (hook.mutating() && response.getPatch() != null && current != null) {
                try {
                    JsonNode patch = Json.MAPPER.readTree(Base64.getDecoder().decode(response.getPatch()));
                    current = (ObjectNode) JsonPatch.apply(patch, current);
                } catch (IOException | RuntimeException e) {
                    throw ApiException.internal("webhook \"" + hook.webhookName() + "\" returned an unusable patch: "
                            + e.getMessage());
                }
            }
        }
        return current;
    }

    private static AdmissionReview review(String operation, ResourceType type, String subresource,
            String namespace, String name, Caller caller, JsonNode object, JsonNode old) {
        AdmissionRequest request = new AdmissionRequest();
        request.setUid(UUID.randomUUID().toString());
        GroupVersionKind gvk = new GroupVersionKind(type.group(), type.kind(), type.version());
        GroupVersionResource gvr = new GroupVersionResource(type.group(), type.plural(), type.version());
        request.setKind(gvk);
        request.setRequestKind(gvk);
        request.setResource(gvr);
        request.setRequestResource(gvr);
        request.setSubResource(subresource);
        request.setName(name);
        request.setNamespace(type.namespaced() ? namespace : null);
        request.setOperation(operation);
        request.setUserInfo(caller.user());
        request.setObject(object == null ? null : Json.MAPPER.convertValue(object, GenericKubernetesResource.class));
        request.setOldObject(old == null ? null : Json.MAPPER.convertValue(old, GenericKubernetesResource.class));
        request.setDryRun(caller.dryRun());
        String optionsKind = switch (operation) {
            case "CREATE" -> "CreateOptions";
            case "UPDATE" -> "UpdateOptions";
            default -> "DeleteOptions";
        };
        GenericKubernetesResource options = new GenericKubernetesResource();
        options.setApiVersion("meta.k8s.io/v1");
        options.setKind(optionsKind);
        request.setOptions(options);
        AdmissionReview review = new AdmissionReview();
        review.setApiVersion("admission.k8s.io/v1");
        review.setKind("AdmissionReview");
        review.setRequest(request);
        return review;
    }

}
