package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.UnreadableObjectException;

/**
 * The one rules engine behind both entry points: the webhook servlet and {@code juneau validate}. Pure: it reads a
 * request and a cluster view and answers a response; it never throws for bad content (a denial instead).
 */
public final class AdmissionEngine {
    public static final String PATCH_TYPE = "JSONPatch";
    public static final int DENIAL_CODE = 403;
    public static final String DENIAL_REASON = "Forbidden";

    /** The six paths of SPEC §2.7, mutation of Services first (the API server runs mutation before validation). */
    public static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("/mutate/services", JuneauConstants.WEBHOOK_SERVICES_MUTATE, true, "services"),
            new Endpoint("/validate/services", JuneauConstants.WEBHOOK_SERVICES_VALIDATE, false, "services"),
            validating(JuneauConstants.PLURAL_ADDRESS_POOLS),
            validating(JuneauConstants.PLURAL_EXTERNAL_NETWORKS),
            validating(JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS),
            validating(JuneauConstants.PLURAL_ARP_ADVERTISEMENTS));

    /** resource -> [group, kind] */
    private static final Map<String, String[]> RESOURCES = Map.of(
            "services", new String[] {"", "Service"},
            JuneauConstants.PLURAL_ADDRESS_POOLS, new String[] {JuneauConstants.GROUP, JuneauConstants.KIND_ADDRESS_POOL},
            JuneauConstants.PLURAL_EXTERNAL_NETWORKS, new String[] {JuneauConstants.GROUP, JuneauConstants.KIND_EXTERNAL_NETWORK},
            JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, new String[] {JuneauConstants.GROUP, JuneauConstants.KIND_SERVICE_LOAD_BALANCER},
            JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, new String[] {JuneauConstants.GROUP, JuneauConstants.KIND_ARP_ADVERTISEMENT});

    private final AdmissionSettings settings;
    private final Map<String, KindRules> rulesByPath = new LinkedHashMap<>();

    public AdmissionEngine(AdmissionSettings settings) {
        this.settings = settings == null ? AdmissionSettings.defaults() : settings;
        rulesByPath.put("/mutate/services", new ServiceMutation());
        rulesByPath.put("/validate/services", new ServiceRules());
        rulesByPath.put("/validate/addresspools", new AddressPoolRules(this.settings));
        rulesByPath.put("/validate/externalnetworks", new ExternalNetworkRules());
        rulesByPath.put("/validate/serviceloadbalancers", ControllerOnlyRules.serviceLoadBalancers(this.settings));
        rulesByPath.put("/validate/arpadvertisements", ControllerOnlyRules.arpAdvertisements(this.settings,
                new ArpAdvertisementRules()));
    }

    private static Endpoint validating(String plural) {
        return new Endpoint("/validate/" + plural, JuneauConstants.validateWebhookName(plural), false, plural);
    }

    public AdmissionSettings settings() {
        return settings;
    }

    /** The endpoint served at a path. */
    public static Optional<Endpoint> endpoint(String path) {
        return ENDPOINTS.stream().filter(e -> e.path().equals(path)).findFirst();
    }

    /** The endpoints that review a resource (plural), mutating first, in the order the API server calls them. */
    public static List<Endpoint> endpointsFor(String resource) {
        return ENDPOINTS.stream().filter(e -> e.resource().equals(resource)).toList();
    }

    /** The plural resource of a kind we review ({@code Service} -> {@code services}), for group "" or ours. */
    public static Optional<String> resourceOf(String group, String kind) {
        return RESOURCES.entrySet().stream()
                .filter(e -> e.getValue()[0].equals(group) && e.getValue()[1].equals(kind))
                .map(Map.Entry::getKey).findFirst();
    }

    /**
     * Review one request on one path. Never throws for bad content: a denial instead. The response carries uid,
     * allowed, status{code 403, reason Forbidden, message} on denial, warnings, and patch (base64 JSONPatch) +
     * patchType "JSONPatch" only when the mutation changes something.
     */
    public AdmissionResponse review(String path, AdmissionRequest request, ClusterView view) {
        AdmissionResponse response = new AdmissionResponse();
        if (request == null) {
            return deny(response, "the AdmissionReview has no request");
        }
        response.setUid(request.getUid());
        Endpoint endpoint = endpoint(path).orElse(null);
        if (endpoint == null) {
            return deny(response, "no admission endpoint at " + KubeObjects.quote(path) + "; served paths: "
                    + String.join(", ", ENDPOINTS.stream().map(Endpoint::path).toList()));
        }
        Verdict verdict;
        try {
            Review review = Review.of(request);
            String mismatch = mismatch(endpoint, request, review);
            verdict = mismatch != null ? Verdict.deny(mismatch) : rulesByPath.get(endpoint.path()).review(review, view);
        } catch (UnreadableObjectException e) {
            verdict = Verdict.deny(e.getMessage());
        } catch (RuntimeException e) {
            // a rule that trips over content it did not expect must still answer (fail closed), never fail the API
            // request, and never show the user an exception text that says nothing about their object
            verdict = Verdict.deny(endpoint.resource() + " " + KubeObjects.quote(requestName(request))
                    + " could not be reviewed: a field has a value Juneau cannot judge; check the object's fields "
                    + "against the API reference");
        }
        if (verdict.denied()) {
            deny(response, verdict.message());
        } else {
            response.setAllowed(true);
            if (endpoint.mutating() && !verdict.patchOps().isEmpty()) {
                response.setPatchType(PATCH_TYPE);
                response.setPatch(JsonPatch.base64(verdict.patchOps()));
            }
        }
        if (!verdict.warnings().isEmpty()) {
            response.setWarnings(List.copyOf(verdict.warnings()));
        }
        return response;
    }

    private static AdmissionResponse deny(AdmissionResponse response, String message) {
        response.setAllowed(false);
        Status status = new StatusBuilder().withStatus("Failure").withCode(DENIAL_CODE).withReason(DENIAL_REASON)
                .withMessage(message).build();
        response.setStatus(status);
        response.setPatch(null);
        response.setPatchType(null);
        return response;
    }

    /** A request for another resource than the endpoint's is a denial naming both (a webhook configuration error). */
    private static String mismatch(Endpoint endpoint, AdmissionRequest request, Review review) {
        String[] expected = RESOURCES.get(endpoint.resource());
        String expectedText = endpoint.resource() + (expected[0].isEmpty() ? "" : "." + expected[0]) + " (kind "
                + expected[1] + ")";
        GroupVersionResource gvr = request.getResource();
        if (gvr != null && gvr.getResource() != null
                && (!endpoint.resource().equals(gvr.getResource()) || !expected[0].equals(nz(gvr.getGroup())))) {
            return endpoint.path() + " reviews " + expectedText + " only, but the request is for "
                    + gvr.getResource() + (nz(gvr.getGroup()).isEmpty() ? "" : "." + gvr.getGroup())
                    + "; check the webhook configuration's rules";
        }
        GroupVersionKind gvk = request.getKind();
        if (gvk != null && gvk.getKind() != null
                && (!expected[1].equals(gvk.getKind()) || !expected[0].equals(nz(gvk.getGroup())))) {
            return endpoint.path() + " reviews " + expectedText + " only, but the request is for kind "
                    + gvk.getKind() + (nz(gvk.getGroup()).isEmpty() ? "" : "." + gvk.getGroup())
                    + "; check the webhook configuration's rules";
        }
        for (JsonNode o : new JsonNode[] {review.object(), review.oldObject()}) {
            if (o == null || !o.hasNonNull("kind")) {
                continue;
            }
            String kind = o.get("kind").asText();
            String group = KubeObjects.group(o.path("apiVersion").asText(""));
            if (!expected[1].equals(kind) || (o.hasNonNull("apiVersion") && !expected[0].equals(group))) {
                return endpoint.path() + " reviews " + expectedText + " only, but the object is of kind " + kind
                        + (group.isEmpty() ? "" : "." + group);
            }
        }
        if (!review.isDelete() && review.object() == null && !"CONNECT".equals(review.operation())) {
            return "the request has no object to review (operation " + KubeObjects.quote(review.operation()) + ")";
        }
        if (review.isDelete() && review.oldObject() == null && review.name().isEmpty()) {
            return "the DELETE request names no object (no name and no oldObject)";
        }
        return null;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String requestName(AdmissionRequest request) {
        return request.getNamespace() == null || request.getNamespace().isEmpty() ? nz(request.getName())
                : request.getNamespace() + "/" + nz(request.getName());
    }
}
