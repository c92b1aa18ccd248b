package me.loutres.juneau.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Puts the admission webhook in front of the mock API server's storage, the way kube-apiserver calls webhooks:
 * mutating first, then validating, with the object the write would produce, the stored object as
 * {@code oldObject}, and the caller's identity. A denial becomes the 403 Status kubectl prints; a webhook that
 * cannot be reached fails the request ({@code failurePolicy: Fail}); {@code dryRun=All} is answered without
 * storing (the mock server itself would persist it).
 */
final class AdmissionGate {

    /** One webhook of the installed configurations (SPEC §2, §6), in calling order. */
    record Hook(String resource, String path, String name, boolean mutating, List<String> operations,
            boolean includeStatus, boolean managedServicesOnly) {
    }

    static final List<Hook> HOOKS = List.of(
            new Hook("services", "/mutate/services", JuneauConstants.WEBHOOK_SERVICES_MUTATE, true,
                    List.of("CREATE", "UPDATE"), false, true),
            new Hook("services", "/validate/services", JuneauConstants.WEBHOOK_SERVICES_VALIDATE, false,
                    List.of("CREATE", "UPDATE"), false, true),
            customKind(JuneauConstants.PLURAL_ADDRESS_POOLS, false),
            customKind(JuneauConstants.PLURAL_EXTERNAL_NETWORKS, false),
            customKind(JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, true),
            customKind(JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, true));

    private static Hook customKind(String plural, boolean includeStatus) {
        return new Hook(plural, "/validate/" + plural, JuneauConstants.validateWebhookName(plural), false,
                List.of("CREATE", "UPDATE", "DELETE"), includeStatus, false);
    }

    private final Dispatcher storage;
    private final Discovery discovery;
    private final WebhookCaller webhook;
    private final ObjectMapper json = new ObjectMapper();

    AdmissionGate(Dispatcher storage, Discovery discovery, WebhookCaller webhook) {
        this.storage = storage;
        this.discovery = discovery;
        this.webhook = webhook;
    }

    /** Empty when no webhook applies: the caller stores the request unchanged. */
    Optional<MockResponse> admit(RecordedRequest request) {
        String operation = operation(request.getMethod());
        if (operation == null) {
            return Optional.empty();
        }
        Optional<ResourcePath> parsed = ResourcePath.parse(request.getPath());
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        ResourcePath target = parsed.get();
        List<Hook> hooks = HOOKS.stream().filter(h -> h.resource().equals(target.resource())
                && isOurGroup(target) && h.operations().contains(operation)
                && (target.subresource() == null || (h.includeStatus() && "status".equals(target.subresource()))))
                .toList();
        if (hooks.isEmpty()) {
            return Optional.empty();
        }
        try {
            // the body buffer can be read once: keep the bytes and hand storage a fresh copy of the request
            byte[] body = request.getBody() == null ? new byte[0] : request.getBody().readByteArray();
            RecordedRequest copy = new RecordedRequest("HTTP/1.1", request.method(), request.getPath(),
                    request.getHeaders(), new Buffer(body));
            return Optional.ofNullable(run(copy, body, operation, target, hooks));
        } catch (IOException e) {
            return Optional.of(status(400, "BadRequest", e.getMessage()));
        }
    }

    private static boolean isOurGroup(ResourcePath p) {
        return p.group().isEmpty() ? p.resource().equals("services") : p.group().equals(JuneauConstants.GROUP);
    }

    private MockResponse run(RecordedRequest request, byte[] body, String operation, ResourcePath target,
            List<Hook> hooks) throws IOException {
        JsonNode old = null;
        String name = target.name();
        if (!operation.equals("CREATE")) {
            old = current(target).orElse(null);
            if (old == null) {
                return null; // let storage answer 404
            }
        }
        JsonNode object = switch (request.getMethod()) {
            case "POST", "PUT" -> readBody(body);
            case "PATCH" -> patched(old, body, request.getHeader("Content-Type"));
            default -> null;
        };
        if (object != null && name == null) {
            name = object.path("metadata").path("name").asText(null);
        }
        boolean dryRun = request.getPath().contains("dryRun=All");
        UserInfo user = Identities.fromAuthorization(request.getHeader("Authorization"));
        List<String> warnings = new ArrayList<>();
        boolean mutated = false;
        for (Hook hook : hooks) {
            if (hook.managedServicesOnly() && !managed(object) && !managed(old)) {
                continue; // the matchConditions keep unmanaged Services away from the webhooks
            }
            AdmissionReview review = review(operation, target, name, user, object, old, dryRun);
            AdmissionResponse response;
            try {
                response = webhook.call(hook.path(), review).getResponse();
            } catch (IOException e) {
                return status(500, "InternalError", "Internal error occurred: failed calling webhook \""
                        + hook.name() + "\": " + e.getMessage());
            }
            if (response == null) {
                return status(500, "InternalError", "Internal error occurred: webhook \"" + hook.name()
                        + "\" returned no response");
            }
            if (response.getWarnings() != null) {
                warnings.addAll(response.getWarnings());
            }
            if (!Boolean.TRUE.equals(response.getAllowed())) {
                String message = response.getStatus() == null ? "" : response.getStatus().getMessage();
                int code = response.getStatus() == null || response.getStatus().getCode() == null ? 403
                        : response.getStatus().getCode();
                MockResponse denied = status(code, "Forbidden",
                        "admission webhook \"" + hook.name() + "\" denied the request: " + message);
                warnings.forEach(w -> denied.addHeader("Warning", warningHeader(w)));
                return denied;
            }
            if (hook.mutating() && response.getPatch() != null && object != null) {
                JsonNode patch = json.readTree(Base64.getDecoder().decode(response.getPatch()));
                object = JsonPatch.apply(patch, object);
                mutated = true;
            }
        }
        MockResponse result;
        if (dryRun) {
            result = new MockResponse().setResponseCode(operation.equals("CREATE") ? 201 : 200)
                    .setBody(json.writeValueAsString(object != null ? object : old));
        } else if (!mutated) {
            result = storage.dispatch(request);
        } else {
            result = storage.dispatch(rewritten(request, object));
        }
        warnings.forEach(w -> result.addHeader("Warning", warningHeader(w)));
        return result;
    }

    private static String warningHeader(String text) {
        return "299 - \"" + text.replace("\"", "'") + "\"";
    }

    private static boolean managed(JsonNode service) {
        return service != null && JuneauConstants.isManaged(service.path("spec").path("type").asText(null),
                service.path("spec").path("loadBalancerClass").asText(null));
    }

    private Optional<JsonNode> current(ResourcePath target) throws IOException {
        String path = new ResourcePath(target.group(), target.version(), target.namespace(), target.resource(),
                target.name(), null).objectPath();
        MockResponse response = storage.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, path,
                Headers.builder().build(), new Buffer()));
        if (response.code() != 200 || response.getBody() == null) {
            return Optional.empty();
        }
        return Optional.of(json.readTree(response.getBody().getBytes()));
    }

    private JsonNode readBody(byte[] body) throws IOException {
        if (body.length == 0) {
            throw new IOException("the request has no body");
        }
        try {
            return json.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("the request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private JsonNode patched(JsonNode old, byte[] body, String contentType) throws IOException {
        JsonNode patch = readBody(body);
        String type = String.valueOf(contentType);
        if (type.startsWith("application/json-patch+json")) {
            return JsonPatch.apply(patch, old);
        }
        // merge patch; a strategic merge patch is read the same way (the local server has no schemas for it)
        return JsonMergePatch.apply(old, patch);
    }

    /** The mutated object replaces the request body; a PATCH becomes a merge patch carrying the whole object. */
    private RecordedRequest rewritten(RecordedRequest request, JsonNode object) throws IOException {
        Headers.Builder headers = Headers.builder().setHeaders(request.getHeaders());
        if ("PATCH".equals(request.getMethod())) {
            headers.set("Content-Type", "application/merge-patch+json");
        }
        byte[] body = json.writeValueAsBytes(object);
        headers.set("Content-Length", Integer.toString(body.length));
        return new RecordedRequest("HTTP/1.1", request.method(), request.getPath(), headers.build(),
                new Buffer(body));
    }

    private AdmissionReview review(String operation, ResourcePath target, String name, UserInfo user,
            JsonNode object, JsonNode old, boolean dryRun) {
        String kind = discovery.kind(target.groupVersion(), target.resource()).orElse("");
        AdmissionRequest request = new AdmissionRequest();
        request.setUid(UUID.randomUUID().toString());
        GroupVersionKind gvk = new GroupVersionKind(target.group(), kind, target.version());
        GroupVersionResource gvr = new GroupVersionResource(target.group(), target.resource(), target.version());
        request.setKind(gvk);
        request.setRequestKind(gvk);
        request.setResource(gvr);
        request.setRequestResource(gvr);
        request.setSubResource(target.subresource());
        request.setName(name);
        request.setNamespace(target.namespace());
        request.setOperation(operation);
        request.setUserInfo(user);
        request.setObject(object == null ? null : json.convertValue(object, GenericKubernetesResource.class));
        request.setOldObject(old == null ? null : json.convertValue(old, GenericKubernetesResource.class));
        request.setDryRun(dryRun);
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

    private static String operation(String method) {
        return switch (method) {
            case "POST" -> "CREATE";
            case "PUT", "PATCH" -> "UPDATE";
            case "DELETE" -> "DELETE";
            default -> null;
        };
    }

    static MockResponse status(int code, String reason, String message) {
        Status status = new StatusBuilder().withApiVersion("v1").withKind("Status").withNewMetadata().endMetadata()
                .withStatus("Failure").withReason(reason).withCode(code).withMessage(message).build();
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(Serialization.asJson(status));
    }

    /** Exposed for tests: the admission chain as a plain map from resource to webhook names. */
    static Map<String, List<String>> routing() {
        Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        HOOKS.forEach(h -> m.computeIfAbsent(h.resource(), k -> new ArrayList<>()).add(h.name()));
        return m;
    }
}
