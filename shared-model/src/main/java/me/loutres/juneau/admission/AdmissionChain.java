package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.policy.ManagedServices;

/**
 * The chain kube-apiserver runs for one write ("Dynamic Admission Control", docs/admission.md): the endpoints the
 * routing table gives (mutating first), each reached only when its matchConditions let the object (or, on DELETE,
 * the old object) through; each mutating answer's JSONPatch applied before the next call; the first denial ends it.
 * One chain for the local API server's gate and for {@code juneau validate}, so the two admit exactly the same
 * things; how a review travels (HTTPS, in-process) is the caller's {@link Call}.
 */
public final class AdmissionChain {

    private AdmissionChain() {
    }

    /** One webhook's answer, as the chain needs it. */
    public record Answer(boolean allowed, int code, String message, List<String> warnings, String patch) {

        /** From the typed response ({@code validate}'s in-process call). */
        public static Answer of(AdmissionResponse r) {
            boolean allowed = Boolean.TRUE.equals(r.getAllowed());
            int code = r.getStatus() != null && r.getStatus().getCode() != null ? r.getStatus().getCode() : 403;
            String message = r.getStatus() == null || r.getStatus().getMessage() == null ? ""
                    : r.getStatus().getMessage();
            return new Answer(allowed, code, message, r.getWarnings() == null ? List.of() : r.getWarnings(),
                    r.getPatch());
        }

        /** From the {@code response} member of an AdmissionReview as JSON (the gate's HTTPS call). */
        public static Answer of(JsonNode response) {
            JsonNode status = response.path("status");
            List<String> warnings = new ArrayList<>();
            response.path("warnings").forEach(w -> warnings.add(w.asText()));
            JsonNode allowed = response.path("allowed");
            return new Answer(allowed.isBoolean() && allowed.booleanValue(),
                    status.path("code").isInt() ? status.path("code").asInt() : 403,
                    status.path("message").isTextual() ? status.path("message").asText() : "", warnings,
                    response.path("patch").isTextual() ? response.path("patch").asText() : null);
        }
    }

    /** Sends one review of {@code current} to an endpoint and returns its answer. */
    @FunctionalInterface
    public interface Call<X extends Exception> {
        Answer review(Endpoint endpoint, JsonNode current) throws X;
    }

    /** How the chain ended. */
    public sealed interface Outcome permits Admitted, Denied, UnusablePatch {
        List<String> warnings();
    }

    /** Every endpoint reached allowed it; {@code object} is the object after the mutating patches. */
    public record Admitted(JsonNode object, List<String> warnings) implements Outcome {
    }

    /** An endpoint denied the write: kubectl prints {@code admission webhook "<name>" denied the request: ...}. */
    public record Denied(Endpoint endpoint, int code, String message, List<String> warnings) implements Outcome {
    }

    /** A mutating endpoint answered a patch that cannot be applied: the API server's 500, never a silent skip. */
    public record UnusablePatch(Endpoint endpoint, String problem, List<String> warnings) implements Outcome {
    }

    /**
     * @param endpoints the routing table's endpoints for the request, mutating first
     * @param user      the requesting user's name, null when not known ({@code validate})
     * @param managed   which Services the install's webhook configurations let through (the default-class overlay
     *                  lets unclassed ones through too, docs/install.md)
     */
    public static <X extends Exception> Outcome run(List<Endpoint> endpoints, JsonNode object, JsonNode old,
            String user, ManagedServices managed, Call<X> call) throws X {
        JsonNode current = object;
        List<String> warnings = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            if (!endpoint.reach().test(current, user, managed) && !endpoint.reach().test(old, user, managed)) {
                continue; // the webhook configuration's matchConditions keep this object away from the endpoint
            }
            Answer answer = call.review(endpoint, current);
            warnings.addAll(answer.warnings());
            if (!answer.allowed()) {
                return new Denied(endpoint, answer.code(), answer.message(), warnings);
            }
            if (endpoint.mutating() && answer.patch() != null && current != null) {
                try {
                    current = JsonPatch.apply(current, answer.patch());
                } catch (IllegalArgumentException e) {
                    return new UnusablePatch(endpoint, e.getMessage(), warnings);
                }
            }
        }
        return new Admitted(current, warnings);
    }
}
