package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.api.JuneauConstants;
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

    /** The routing table, {@link AdmissionRoutes#ALL}. */
    public static final List<Endpoint> ENDPOINTS = AdmissionRoutes.ALL;

    private final AdmissionSettings settings;
    private final Map<Endpoint.Rules, KindRules> rules = new EnumMap<>(Endpoint.Rules.class);

    public AdmissionEngine(AdmissionSettings settings) {
        this.settings = settings == null ? AdmissionSettings.defaults() : settings;
        for (Endpoint.Rules r : Endpoint.Rules.values()) {
            rules.put(r, switch (r) {
                case SERVICE_MUTATION -> new ServiceMutation(this.settings.managed());
                case SERVICE_VALIDATION -> new ServiceRules(this.settings.managed());
                case ADDRESS_POOLS -> new AddressPoolRules(this.settings);
                case EXTERNAL_NETWORKS -> new ExternalNetworkRules();
                case SERVICE_LOAD_BALANCERS -> ControllerOnlyRules.serviceLoadBalancers(this.settings);
                case ARP_ADVERTISEMENTS -> ControllerOnlyRules.arpAdvertisements(this.settings, new ArpAdvertisementRules());
                case BGP_PEERS -> new BgpPeerRules();
                case BFD_PROFILES -> new BfdProfileRules();
                case BGP_SESSIONS -> new BgpSessionRules(this.settings);
                case NODE_NETWORKS -> new NodeNetworkRules(this.settings);
            });
        }
    }

    public AdmissionSettings settings() {
        return settings;
    }

    /** {@link AdmissionRoutes#byPath}. */
    public static Optional<Endpoint> endpoint(String path) {
        return AdmissionRoutes.byPath(path);
    }

    /** {@link AdmissionRoutes#forResource}. */
    public static List<Endpoint> endpointsFor(String resource) {
        return AdmissionRoutes.forResource(resource);
    }

    /** {@link AdmissionRoutes#resourceOf}. */
    public static Optional<String> resourceOf(String group, String kind) {
        return AdmissionRoutes.resourceOf(group, kind);
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
            verdict = mismatch != null ? Verdict.deny(mismatch) : rules.get(endpoint.rules()).review(review, view);
            if (!verdict.denied()) {
                // who may write, and what, is said first; what the rules would admit must also read strictly
                readsStrictly(endpoint, review);
            }
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
        String expectedText = endpoint.resource() + (endpoint.group().isEmpty() ? "" : "." + endpoint.group())
                + " (kind " + endpoint.kind() + ")";
        GroupVersionResource gvr = request.getResource();
        if (gvr != null && gvr.getResource() != null
                && (!endpoint.resource().equals(gvr.getResource()) || !endpoint.group().equals(nz(gvr.getGroup())))) {
            return endpoint.path() + " reviews " + expectedText + " only, but the request is for "
                    + gvr.getResource() + (nz(gvr.getGroup()).isEmpty() ? "" : "." + gvr.getGroup())
                    + "; check the webhook configuration's rules";
        }
        GroupVersionKind gvk = request.getKind();
        if (gvk != null && gvk.getKind() != null
                && (!endpoint.kind().equals(gvk.getKind()) || !endpoint.group().equals(nz(gvk.getGroup())))) {
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
            if (!endpoint.kind().equals(kind) || (o.hasNonNull("apiVersion") && !endpoint.group().equals(group))) {
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

    /**
     * A Juneau object under review reads as its kind with strict types (docs/admission.md): a rule that reads only a
     * few fields from the tree (the agents' status writes) must not let a {@code 1.5} or a string status through
     * either. An object being deleted is not judged: its finalizers can always be removed.
     *
     * @throws me.loutres.juneau.view.UnreadableObjectException naming the field and the value
     */
    private static void readsStrictly(Endpoint endpoint, Review review) {
        if (!JuneauConstants.GROUP.equals(endpoint.group()) || review.object() == null || review.beingDeleted()) {
            return;
        }
        Class<?> type = KubeObjects.typedClass(endpoint.group() + "/" + endpoint.kind());
        if (type != null) {
            KubeObjects.read(review.object(), type, endpoint.kind());
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String requestName(AdmissionRequest request) {
        return request.getNamespace() == null || request.getNamespace().isEmpty() ? nz(request.getName())
                : request.getNamespace() + "/" + nz(request.getName());
    }
}
