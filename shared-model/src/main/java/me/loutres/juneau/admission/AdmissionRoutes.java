package me.loutres.juneau.admission;

import java.util.List;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The admission routing table (docs/admission.md): the ten endpoints, mutation of Services first because the API server runs
 * mutating webhooks before validating ones. {@link AdmissionEngine} answers from it, the webhook serves its paths,
 * {@code juneau validate} and the local API server call its endpoints in this order, and the manifests test checks
 * the webhook configurations against it.
 */
public final class AdmissionRoutes {
    private static final List<String> CREATE_UPDATE = List.of("CREATE", "UPDATE");
    private static final List<String> CREATE_UPDATE_DELETE = List.of("CREATE", "UPDATE", "DELETE");

    public static final List<Endpoint> ALL = List.of(
            new Endpoint("/mutate/services", JuneauConstants.WEBHOOK_SERVICES_MUTATE, true, "", "v1", "Service",
                    "services", CREATE_UPDATE, false, "Namespaced", Endpoint.Reach.MANAGED_SERVICES,
                    Endpoint.Rules.SERVICE_MUTATION),
            new Endpoint("/validate/services", JuneauConstants.WEBHOOK_SERVICES_VALIDATE, false, "", "v1", "Service",
                    "services", CREATE_UPDATE, false, "Namespaced", Endpoint.Reach.MANAGED_OR_ANNOTATED_SERVICES,
                    Endpoint.Rules.SERVICE_VALIDATION),
            custom(JuneauConstants.KIND_ADDRESS_POOL, JuneauConstants.PLURAL_ADDRESS_POOLS, false, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.ADDRESS_POOLS),
            custom(JuneauConstants.KIND_EXTERNAL_NETWORK, JuneauConstants.PLURAL_EXTERNAL_NETWORKS, false, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.EXTERNAL_NETWORKS),
            custom(JuneauConstants.KIND_SERVICE_LOAD_BALANCER, JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, true,
                    "Namespaced", Endpoint.Reach.NOT_BY_THE_CONTROLLER, Endpoint.Rules.SERVICE_LOAD_BALANCERS),
            // the controller's advertisements are reviewed too: their content rules can deny them (docs/phases-and-conditions.md)
            custom(JuneauConstants.KIND_ARP_ADVERTISEMENT, JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, true, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.ARP_ADVERTISEMENTS),
            custom(JuneauConstants.KIND_BGP_PEER, JuneauConstants.PLURAL_BGP_PEERS, false, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.BGP_PEERS),
            custom(JuneauConstants.KIND_BFD_PROFILE, JuneauConstants.PLURAL_BFD_PROFILES, false, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.BFD_PROFILES),
            // the agents write status many times a minute; their writes are reviewed so that one node cannot
            // speak for another (docs/admission.md, BGPSession)
            custom(JuneauConstants.KIND_BGP_SESSION, JuneauConstants.PLURAL_BGP_SESSIONS, true, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.BGP_SESSIONS),
            // one node's agent reports its node's network; another node's cannot (docs/admission.md, NodeNetwork)
            custom(JuneauConstants.KIND_NODE_NETWORK, JuneauConstants.PLURAL_NODE_NETWORKS, true, "Cluster",
                    Endpoint.Reach.EVERY_OBJECT, Endpoint.Rules.NODE_NETWORKS));

    private AdmissionRoutes() {
    }

    private static Endpoint custom(String kind, String plural, boolean status, String scope, Endpoint.Reach reach,
            Endpoint.Rules rules) {
        return new Endpoint("/validate/" + plural, JuneauConstants.validateWebhookName(plural), false,
                JuneauConstants.GROUP, JuneauConstants.VERSION, kind, plural, CREATE_UPDATE_DELETE, status, scope,
                reach, rules);
    }

    /** The endpoint served at a path. */
    public static Optional<Endpoint> byPath(String path) {
        return ALL.stream().filter(e -> e.path().equals(path)).findFirst();
    }

    /** The endpoints that review a resource (plural), mutating first, in the order the API server calls them. */
    public static List<Endpoint> forResource(String resource) {
        return ALL.stream().filter(e -> e.resource().equals(resource)).toList();
    }

    /**
     * The endpoints the API server calls for one request, in calling order (before matchConditions, which are
     * {@link Endpoint.Reach#test} on the object).
     */
    public static List<Endpoint> forRequest(String group, String resource, String subresource, String operation) {
        return ALL.stream().filter(e -> e.reviews(group, resource, subresource, operation)).toList();
    }

    /** The plural resource of a kind we review ({@code Service} -> {@code services}), for group "" or ours. */
    public static Optional<String> resourceOf(String group, String kind) {
        return ALL.stream().filter(e -> e.group().equals(group) && e.kind().equals(kind)).map(Endpoint::resource)
                .findFirst();
    }
}
