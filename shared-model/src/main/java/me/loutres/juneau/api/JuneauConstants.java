package me.loutres.juneau.api;

/** Every name of the API contract (docs/api-reference.md) in one place. */
public final class JuneauConstants {
    public static final String GROUP = "juneau.loutres.me";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    public static final String LOAD_BALANCER_CLASS = GROUP + "/load-balancer";
    public static final String ANNOTATION_EXTERNAL_NETWORK = GROUP + "/load-balancer-external-network";
    public static final String ANNOTATION_REQUESTED_IP = GROUP + "/load-balancer-requested-ip";
    /**
     * On an ExternalNetwork, value {@code "true"}: it serves managed Services without
     * {@link #ANNOTATION_EXTERNAL_NETWORK} (docs/api-reference.md, "The default network"); at most one network has it.
     */
    public static final String ANNOTATION_DEFAULT_NETWORK = GROUP + "/default-network";
    public static final String FINALIZER = "serviceloadbalancer." + GROUP + "/allocation-claim";

    public static final String LABEL_SERVICE_NAMESPACE = GROUP + "/service-namespace";
    public static final String LABEL_SERVICE_NAME = GROUP + "/service-name";
    /**
     * On every ARPAdvertisement the controller writes: its Service's metadata.uid, so the agent's Events on the Service
     * carry {@code involvedObject.uid} and {@code kubectl describe service} lists them (docs/api-reference.md).
     */
    public static final String LABEL_SERVICE_UID = GROUP + "/service-uid";
    /** On every ARPAdvertisement, equal to {@code spec.nodeName}: each node agent watches only its own (docs/api-reference.md). */
    public static final String LABEL_NODE = GROUP + "/node";
    /** On every BGPSession, equal to {@code spec.peer} (docs/api-reference.md, BGPSession). */
    public static final String LABEL_PEER = GROUP + "/peer";
    /**
     * Kubernetes' standard label for nodes that must never take load-balancer traffic (any value); such a node
     * announces nothing (docs/api-reference.md, ExternalNetwork).
     */
    public static final String LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS =
            "node.kubernetes.io/exclude-from-external-load-balancers";
    /** ARPAdvertisement name prefix; the full name is {@code slb-<namespace>-<name>}. */
    public static final String ARP_ADVERTISEMENT_PREFIX = "slb-";

    public static final String KIND_ADDRESS_POOL = "AddressPool";
    public static final String KIND_EXTERNAL_NETWORK = "ExternalNetwork";
    public static final String KIND_SERVICE_LOAD_BALANCER = "ServiceLoadBalancer";
    public static final String KIND_ARP_ADVERTISEMENT = "ARPAdvertisement";
    public static final String KIND_BGP_PEER = "BGPPeer";
    public static final String KIND_BFD_PROFILE = "BFDProfile";
    public static final String KIND_BGP_SESSION = "BGPSession";
    public static final String KIND_NODE_NETWORK = "NodeNetwork";

    public static final String PLURAL_ADDRESS_POOLS = "addresspools";
    public static final String PLURAL_EXTERNAL_NETWORKS = "externalnetworks";
    public static final String PLURAL_SERVICE_LOAD_BALANCERS = "serviceloadbalancers";
    public static final String PLURAL_ARP_ADVERTISEMENTS = "arpadvertisements";
    public static final String PLURAL_BGP_PEERS = "bgppeers";
    public static final String PLURAL_BFD_PROFILES = "bfdprofiles";
    public static final String PLURAL_BGP_SESSIONS = "bgpsessions";
    public static final String PLURAL_NODE_NETWORKS = "nodenetworks";

    public static final String MODE_BGP = "bgp";
    public static final String MODE_ARP = "arp";

    public static final String DEFAULT_CONTROLLER_USERNAME = "system:serviceaccount:juneau-system:juneau-controller";
    public static final String GARBAGE_COLLECTOR_USERNAME = "system:serviceaccount:kube-system:generic-garbage-collector";
    public static final String NAMESPACE_CONTROLLER_USERNAME = "system:serviceaccount:kube-system:namespace-controller";
    /** The garbage collector and namespace controller when the cluster runs them without per-controller credentials. */
    public static final String KUBE_CONTROLLER_MANAGER_USERNAME = "system:kube-controller-manager";

    /** The node agent (README.md, "How a VIP answers"): its identity, its Lease, its status condition and Events. */
    public static final String DEFAULT_AGENT_USERNAME = "system:serviceaccount:juneau-system:juneau-agent";
    /** The agent's liveness Lease is {@code juneau-agent-<node>} in {@link #SYSTEM_NAMESPACE} (docs/phases-and-conditions.md). */
    public static final String AGENT_LEASE_PREFIX = "juneau-agent-";
    public static final String CONDITION_ANNOUNCED = "Announced";
    public static final String REASON_ANNOUNCED = "Announced";
    /** ServiceLoadBalancer condition Announced=False: no agent reports the VIP on the wire (docs/phases-and-conditions.md). */
    public static final String REASON_NOT_ANNOUNCED = "NotAnnounced";
    public static final String REASON_INTERFACE_NOT_FOUND = "InterfaceNotFound";
    public static final String REASON_SOCKET_ERROR = "SocketError";
    public static final String REASON_NOT_OWNER = "NotOwner";
    /** Normal event on the Service: {@code Announcing <vip> from <node> via <if>}. */
    public static final String EVENT_ANNOUNCING = "Announcing";
    /** Warning on an ARPAdvertisement the node agent cannot read or answer (field and value in the message). */
    public static final String EVENT_INVALID_ADVERTISEMENT = "InvalidAdvertisement";

    /** A BGPSession's name: {@code <peer>.<node>} (docs/api-reference.md, BGPSession). */
    public static String bgpSessionName(String peer, String node) {
        return peer + "." + node;
    }

    public static String agentLeaseName(String node) {
        return AGENT_LEASE_PREFIX + node;
    }

    public static final String WEBHOOK_SERVICES_VALIDATE = "services.validate." + GROUP;
    public static final String WEBHOOK_SERVICES_MUTATE = "services.mutate." + GROUP;

    /** The webhook name of a custom kind, e.g. {@code addresspools.validate.juneau.loutres.me}. */
    public static String validateWebhookName(String plural) {
        return plural + ".validate." + GROUP;
    }

    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    /** Names of the installed objects (manifests/, docs/install.md); the certs command and the manifests tests use them. */
    public static final String SYSTEM_NAMESPACE = "juneau-system";
    public static final String WEBHOOK_SERVICE_NAME = "juneau-webhook";
    public static final String WEBHOOK_TLS_SECRET = "juneau-webhook-tls";
    public static final String WEBHOOK_CA_SECRET = "juneau-webhook-ca";
    public static final String VALIDATING_WEBHOOK_CONFIGURATION = "juneau-validating-webhooks";
    public static final String MUTATING_WEBHOOK_CONFIGURATION = "juneau-mutating-webhooks";

    /** Phases of a ServiceLoadBalancer (docs/phases-and-conditions.md). */
    public static final String PHASE_PENDING = "Pending";
    public static final String PHASE_ALLOCATED = "Allocated";
    public static final String PHASE_READY = "Ready";
    public static final String PHASE_DEGRADED = "Degraded";
    public static final String PHASE_ERROR = "Error";

    public static final String CONDITION_ALLOCATED = "Allocated";
    public static final String CONDITION_AVAILABLE = "Available";

    public static final String REASON_ALLOCATED = "Allocated";
    public static final String REASON_POOL_EXHAUSTED = "PoolExhausted";
    public static final String REASON_REQUESTED_IP_IN_USE = "RequestedIPInUse";
    /** The Service asks for an IPv6 VIP first, or for both families; the controller hands out IPv4 only so far (docs/dual-stack.md). */
    public static final String REASON_FAMILY_NOT_SERVED = "FamilyNotServed";
    /**
     * Two ServiceLoadBalancer statuses record one address; the younger allocation gives it up (docs/allocation.md).
     * Also an ARPAdvertisement's {@code Announced=False} reason, and the Warning event's, when another device on the
     * link already uses the VIP (docs/troubleshooting.md, "My VIP conflicts with another device").
     */
    public static final String REASON_ADDRESS_CONFLICT = "AddressConflict";
    public static final String REASON_INVALID_CONFIG = "InvalidConfig";
    public static final String REASON_EXTERNAL_NETWORK_UNAVAILABLE = "ExternalNetworkUnavailable";
    /** The Service's ExternalNetwork does not let it use it ({@code spec.serviceAllocation}); a VIP held is kept. */
    public static final String REASON_NOT_ALLOWED = "NotAllowed";
    public static final String REASON_READY = "Ready";
    public static final String REASON_NO_READY_BACKENDS = "NoReadyBackends";
    public static final String REASON_NOT_ALLOCATED = "NotAllocated";

    /** Events on the Service (docs/phases-and-conditions.md step 6). */
    public static final String EVENT_IP_ALLOCATED = "IPAllocated";
    public static final String EVENT_ALLOCATION_FAILED = "AllocationFailed";
    public static final String EVENT_ANNOUNCING_NODE_CHANGED = "AnnouncingNodeChanged";
    /** Warning: a Service port's named targetPort is not found in its EndpointSlices (docs/phases-and-conditions.md). */
    public static final String EVENT_TARGET_PORT_NOT_FOUND = "TargetPortNotFound";
    /**
     * Warning and {@code Available} condition reason: the ARPAdvertisement name of a Service is taken by another
     * Service's advertisement ({@code a-b}/{@code c} vs {@code a}/{@code b-c}, docs/api-reference.md); never overwritten.
     */
    public static final String REASON_ARP_ADVERTISEMENT_CONFLICT = "ARPAdvertisementNameConflict";
    /** Condition reason and Warning event: the API server refused a controller write (docs/phases-and-conditions.md). */
    public static final String REASON_WRITE_DENIED = "WriteDenied";
    /** Warning event: a ServiceLoadBalancer status the controller cannot read is left alone (docs/phases-and-conditions.md). */
    public static final String EVENT_MALFORMED_STATUS = "MalformedStatus";
    /** Warning event: an entry of an object offers nothing and is skipped (e.g. an AddressPool entry). */
    public static final String EVENT_MALFORMED_ENTRY = "MalformedEntry";

    private JuneauConstants() {
    }

    public static String arpAdvertisementName(String namespace, String name) {
        return ARP_ADVERTISEMENT_PREFIX + namespace + "-" + name;
    }
}
