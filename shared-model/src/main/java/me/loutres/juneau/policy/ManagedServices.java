package me.loutres.juneau.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Service;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Which Services Juneau serves (docs/api-reference.md, "Managed Services"): the one decision the webhook's rules and
 * routing table, the controller and {@code juneau validate} all ask, so that they cannot disagree. A Service is
 * managed when it is {@code type: LoadBalancer} with {@code spec.loadBalancerClass: juneau.loutres.me/load-balancer};
 * with {@code --manage-unclassed} also when it is {@code type: LoadBalancer} without a class. A Service with another
 * class is never managed: another implementation serves it.
 *
 * @param manageUnclassed the {@code --manage-unclassed} flag of the controller, the webhook and validate
 */
public record ManagedServices(boolean manageUnclassed) {
    /** The default: only Services that name Juneau's class. */
    public static final ManagedServices CLASSED = new ManagedServices(false);
    /** {@code --manage-unclassed}: unclassed LoadBalancer Services too (overlay manifests/overlays/default-class). */
    public static final ManagedServices UNCLASSED_TOO = new ManagedServices(true);

    public static ManagedServices of(boolean manageUnclassed) {
        return manageUnclassed ? UNCLASSED_TOO : CLASSED;
    }

    /**
     * The decision on the two fields. "No class" is a null {@code loadBalancerClass}, as the webhook configuration's
     * CEL tests it ({@code !has(object.spec.loadBalancerClass)}); the API server never stores an empty one.
     */
    public boolean manages(String type, String loadBalancerClass) {
        if (!"LoadBalancer".equals(type)) {
            return false;
        }
        return JuneauConstants.LOAD_BALANCER_CLASS.equals(loadBalancerClass)
                || (manageUnclassed && loadBalancerClass == null);
    }

    public boolean manages(Service service) {
        return service != null && service.getSpec() != null
                && manages(service.getSpec().getType(), service.getSpec().getLoadBalancerClass());
    }

    /** The same over a Service as JSON, as the API server hands it to the matchConditions (null: no object). */
    public boolean manages(JsonNode service) {
        if (service == null || service.isNull() || service.isMissingNode()) {
            return false;
        }
        JsonNode spec = service.path("spec");
        JsonNode cls = spec.path("loadBalancerClass");
        return manages(spec.path("type").isTextual() ? spec.path("type").asText() : null,
                cls.isTextual() ? cls.asText() : null);
    }

    /** What the Service would need to be served, for the warning on a Service that is not (docs/admission.md). */
    public String accepted() {
        return "spec.type: LoadBalancer and spec.loadBalancerClass: " + JuneauConstants.LOAD_BALANCER_CLASS
                + (manageUnclassed ? " or no spec.loadBalancerClass" : "");
    }
}
