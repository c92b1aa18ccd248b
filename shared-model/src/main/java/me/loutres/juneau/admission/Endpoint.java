package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import java.util.List;

/**
 * One row of the admission routing table ({@link AdmissionRoutes#ALL}, docs/admission.md): which requests go to which
 * HTTP path under which webhook name, and which rules answer them. The engine, the webhook's servlet paths, the local
 * API server's admission gate and the manifests test are all read from it.
 *
 * @param path        the HTTP path, e.g. {@code /validate/services}
 * @param webhookName the name in the webhook configuration, printed by kubectl on denial
 * @param mutating    true for the one mutating endpoint (MutatingWebhookConfiguration)
 * @param group       the API group of the reviewed kind ("" for the core group)
 * @param version     its version
 * @param kind        the reviewed kind, e.g. {@code Service}
 * @param resource    the plural resource it reviews, e.g. {@code services}
 * @param operations  the operations sent to it
 * @param status      true when writes of the {@code status} subresource are reviewed too
 * @param scope       {@code Namespaced} or {@code Cluster}
 * @param reach       which objects the webhook configuration's matchConditions let through
 * @param rules       the rules that answer
 */
public record Endpoint(String path, String webhookName, boolean mutating, String group, String version, String kind,
                       String resource, List<String> operations, boolean status, String scope, Reach reach,
                       Rules rules) {

    public Endpoint {
        operations = List.copyOf(operations);
    }

    /**
     * False for the Service endpoints: their rules never read {@code metadata.managedFields} (the API server's record
     * of who set which field, which the shared reader drops before binding anyway), so the webhook need not build it
     * into the request's trees; it was about a third of a Service review's parsing (BENCHMARKS.md, "Webhook steady and
     * cold"). The other kinds' rules compare whole objects and keep it.
     */
    public boolean readsManagedFields() {
        return rules != Rules.SERVICE_MUTATION && rules != Rules.SERVICE_VALIDATION;
    }

    /** The rule sets of the engine, one per endpoint. */
    public enum Rules {
        SERVICE_MUTATION, SERVICE_VALIDATION, ADDRESS_POOLS, EXTERNAL_NETWORKS, SERVICE_LOAD_BALANCERS,
        ARP_ADVERTISEMENTS, BGP_PEERS, BFD_PROFILES, BGP_SESSIONS, NODE_NETWORKS
    }

    /** What the webhook configuration's {@code matchConditions} let reach the endpoint (docs/install.md). */
    public enum Reach {
        /** no matchConditions: every object of the kind */
        EVERY_OBJECT,
        /** managed Services only (docs/api-reference.md) */
        MANAGED_SERVICES,
        /** managed Services, and Services with a {@code juneau.loutres.me/} annotation (they are warned) */
        MANAGED_OR_ANNOTATED_SERVICES,
        /**
         * every request but the controller's own ({@link JuneauConstants#DEFAULT_CONTROLLER_USERNAME}): the
         * ServiceLoadBalancer rules allow all of them (docs/admission.md), so reviewing them only cost two webhook calls
         * per new Service
         */
        NOT_BY_THE_CONTROLLER;

        /**
         * The matchCondition as Java, over the object as the API server hands it to CEL ({@code null} on DELETE,
         * when the Service webhooks are not called) and the requesting user's name ({@code null}: not known, as
         * for {@code juneau validate}, which checks files someone wrote, never the controller), for the base
         * install's webhook configuration (Juneau's class only).
         */
        public boolean test(JsonNode object, String username) {
            return test(object, username, ManagedServices.CLASSED);
        }

        /**
         * The same for an install whose Service webhooks let through what {@code managed} manages: the overlay
         * manifests/overlays/default-class admits unclassed LoadBalancer Services too (docs/install.md).
         */
        public boolean test(JsonNode object, String username, ManagedServices managed) {
            if (this == NOT_BY_THE_CONTROLLER) {
                return !JuneauConstants.DEFAULT_CONTROLLER_USERNAME.equals(username);
            }
            return test(object, managed);
        }

        /** The matchCondition as Java, over the object alone (see {@link #test(JsonNode, String)}). */
        public boolean test(JsonNode object) {
            return test(object, ManagedServices.CLASSED);
        }

        /** The matchCondition as Java, over the object alone, for an install that manages what {@code managed} does. */
        public boolean test(JsonNode object, ManagedServices managed) {
            if (this == EVERY_OBJECT || this == NOT_BY_THE_CONTROLLER) {
                return true;
            }
            if (object == null || object.isNull()) {
                return false;
            }
            boolean isManaged = managed.manages(object);
            if (isManaged || this == MANAGED_SERVICES) {
                return isManaged;
            }
            JsonNode annotations = object.path("metadata").path("annotations");
            for (var it = annotations.fieldNames(); it.hasNext(); ) {
                if (it.next().startsWith(JuneauConstants.GROUP + "/")) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The resources of the webhook rule: the resource, and its status subresource when reviewed. */
    public List<String> resources() {
        return status ? List.of(resource, resource + "/status") : List.of(resource);
    }

    /**
     * True when the API server sends this request here: the group, resource, subresource ("" or null for the main
     * resource) and operation match the webhook rule. The matchConditions are {@link Reach#test}, on the object.
     */
    public boolean reviews(String requestGroup, String requestResource, String subresource, String operation) {
        boolean sub = subresource == null || subresource.isEmpty() || (status && "status".equals(subresource));
        return group.equals(requestGroup == null ? "" : requestGroup) && resource.equals(requestResource) && sub
                && operations.contains(operation);
    }
}
