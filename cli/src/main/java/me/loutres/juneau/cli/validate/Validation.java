package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionChain;
import me.loutres.juneau.admission.AdmissionRoutes;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.view.UnreadableObjectException;

/**
 * Plays manifests against a simulated cluster the way the API server would admit them: dependency order, the
 * mutating webhook then the validating one, each accepted object joining the cluster for the objects after it.
 */
public final class Validation {
    /** Namespaced kinds we place in "default" when the manifest names none, as kubectl with a default context. */
    private static final Set<String> NAMESPACED = Set.of("/Service", "/Secret",
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_SERVICE_LOAD_BALANCER);
    private static final Set<String> CLUSTER_SCOPED = Set.of("/Node",
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ADDRESS_POOL,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_EXTERNAL_NETWORK,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ARP_ADVERTISEMENT,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_PEER,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BFD_PROFILE,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_SESSION,
            JuneauConstants.GROUP + "/" + JuneauConstants.KIND_NODE_NETWORK);
    /** Juneau's kinds, as the routing table lists them, for the message about a kind that is not one. */
    private static final String KNOWN_KINDS = String.join(", ", AdmissionRoutes.ALL.stream()
            .filter(e -> JuneauConstants.GROUP.equals(e.group())).map(Endpoint::kind).distinct().toList());
    public static final String DEFAULT_NAMESPACE = "default";

    private final AdmissionCall call;
    private final String user;
    private SnapshotClusterView view;
    /**
     * Every object of the simulated cluster by group/kind/namespace/name: an object of the manifests is an
     * UPDATE when it is here.
     */
    private final Map<String, HasMetadata> stored = new HashMap<>();
    private final VipSimulation vips = new VipSimulation();
    /** Which Services the install manages (--manage-unclassed): the webhook configuration's reach and the forecast. */
    private final ManagedServices managed;
    private int uid;

    public Validation(AdmissionCall call, SnapshotClusterView initial, String user) {
        this(call, initial, user, ManagedServices.CLASSED);
    }

    /** For an install that manages what {@code managed} does (the engine behind {@code call} must be told the same). */
    public Validation(AdmissionCall call, SnapshotClusterView initial, String user, ManagedServices managed) {
        this.managed = managed;
        this.call = call;
        // a copy: the run grows its view object by object (SnapshotClusterView.add), the caller's stays as given
        this.view = new SnapshotClusterView(initial.objects());
        this.user = user;
        for (HasMetadata o : initial.objects()) {
            stored.put(key(KubeObjects.group(o.getApiVersion()), o.getKind(),
                    o.getMetadata().getNamespace() == null ? "" : o.getMetadata().getNamespace(), o.getMetadata().getName()), o);
        }
    }

    private static String key(String group, String kind, String namespace, String name) {
        return group + "/" + kind + "/" + namespace + "/" + name;
    }

    /**
     * The object joins the simulated cluster: the map answers "is this an UPDATE", the view grows by this object
     * alone (its indexes too), and the allocator learns a pool or a Node (docs/ci.md, speed).
     */
    private void store(String groupKind, String namespace, String name, HasMetadata typed) {
        stored.put(groupKind + "/" + namespace + "/" + name, typed);
        view.add(typed);
        vips.accepted(typed, view);
    }

    /** The rules engine in this process. */
    public static AdmissionCall inProcess(AdmissionEngine engine) {
        return (endpoint, request, view) -> engine.review(endpoint.path(), request, view);
    }

    /** What the rules read of the simulated cluster now: its pools, networks, nodes and Juneau's own objects. */
    public SnapshotClusterView view() {
        return view;
    }

    /** Every object's outcome, in the order the cluster would see them. */
    public List<Outcome> run(List<ManifestObject> objects) {
        List<Outcome> outcomes = new ArrayList<>();
        for (ManifestObject o : DependencyOrder.sort(objects)) {
            outcomes.add(review(o));
        }
        return outcomes;
    }

    Outcome review(ManifestObject o) {
        String groupKind = o.group() + "/" + o.kind();
        boolean ours = JuneauConstants.GROUP.equals(o.group());
        Optional<String> resource = AdmissionRoutes.resourceOf(o.group(), o.kind());
        String version = o.apiVersion().substring(o.apiVersion().indexOf('/') + 1);
        if (ours && (resource.isEmpty() || !JuneauConstants.VERSION.equals(version))) {
            return new Outcome(o, "CREATE", false, true, Outcome.NOT_FOUND, null, "no matches for kind \"" + o.kind() + "\" in version \""
                    + o.apiVersion() + "\"; ensure CRDs are installed first (known kinds of " + JuneauConstants.API_VERSION
                    + ": " + KNOWN_KINDS + ")", List.of(), null);
        }
        ObjectNode object = KubeObjects.copy(o.content());
        String namespace = placeNamespace(object, groupKind);
        JsonNode old = KubeObjects.tree(stored.get(key(o.group(), o.kind(), namespace, o.name())));
        String operation = old == null ? "CREATE" : "UPDATE";
        if (resource.isEmpty()) {
            return passThrough(o, operation, object, groupKind, namespace);
        }
        if (old == null) {
            object.remove("status"); // dropped by the API server for kinds with a status subresource
        } else {
            keepServerFields(object, old);
        }
        if ("/Service".equals(groupKind)) {
            defaultTrafficPolicy(object, old);
        }
        String op = operation;
        AdmissionChain.Outcome chain = AdmissionChain.run(AdmissionRoutes.forResource(resource.get()), object, old,
                user, managed, (endpoint, current) -> AdmissionChain.Answer.of(
                        call.review(endpoint, request(endpoint, op, o, namespace, current, old), view)));
        List<String> warnings = chain.warnings();
        if (chain instanceof AdmissionChain.Denied d) {
            String message = d.message().isEmpty() ? "denied without a message" : d.message();
            return new Outcome(o, operation, false, true, Outcome.FORBIDDEN, d.endpoint().webhookName(), message,
                    warnings, null);
        }
        if (chain instanceof AdmissionChain.UnusablePatch u) {
            return new Outcome(o, operation, false, true, Outcome.INTERNAL, u.endpoint().webhookName(),
                    "webhook \"" + u.endpoint().webhookName() + "\" returned an unusable patch: " + u.problem(),
                    warnings, null);
        }
        JsonNode current = ((AdmissionChain.Admitted) chain).object();
        HasMetadata admitted;
        try {
            admitted = KubeObjects.toObject(current);
        } catch (UnreadableObjectException e) {
            return new Outcome(o, operation, false, true, Outcome.BAD_REQUEST, null, e.getMessage(), warnings, null);
        }
        store(groupKind, namespace, o.name(), admitted);
        Outcome.VipForecast forecast = null;
        if (admitted instanceof Service service && managed.manages(service)) {
            forecast = vips.allocate(service, view);
        }
        return new Outcome(o, operation, true, true, null, null, null, warnings, forecast);
    }

    private Outcome passThrough(ManifestObject o, String operation, ObjectNode object, String groupKind, String namespace) {
        try {
            store(groupKind, namespace, o.name(), KubeObjects.toObject(object));
        } catch (UnreadableObjectException e) {
            // a Node the view cannot read: the API server would refuse it for the same reason
            return new Outcome(o, operation, false, false, Outcome.BAD_REQUEST, null, e.getMessage(), List.of(), null);
        }
        return new Outcome(o, operation, true, false, null, null, null, List.of(), null);
    }

    /** Places namespaced objects in "default" when unset, and drops a namespace from cluster-scoped ones. */
    private static String placeNamespace(ObjectNode object, String groupKind) {
        ObjectNode meta = (ObjectNode) object.get("metadata");
        if (CLUSTER_SCOPED.contains(groupKind)) {
            meta.remove("namespace");
            return "";
        }
        String ns = meta.path("namespace").asText("");
        if (ns.isEmpty() && NAMESPACED.contains(groupKind)) {
            meta.put("namespace", DEFAULT_NAMESPACE);
            return DEFAULT_NAMESPACE;
        }
        return ns;
    }

    /** An apply keeps what the server owns: identity, finalizers and owners when not written, and the status. */
    private static void keepServerFields(ObjectNode object, JsonNode old) {
        ObjectNode meta = (ObjectNode) object.get("metadata");
        JsonNode oldMeta = old.path("metadata");
        for (String field : List.of("uid", "resourceVersion", "creationTimestamp", "generation", "deletionTimestamp")) {
            if (oldMeta.has(field)) {
                meta.set(field, oldMeta.get(field));
            }
        }
        for (String field : List.of("finalizers", "ownerReferences")) {
            if (!meta.has(field) && oldMeta.has(field)) {
                meta.set(field, oldMeta.get(field));
            }
        }
        object.remove("status");
        if (old.has("status")) {
            object.set("status", old.get("status"));
        }
    }

    /** The API server defaults an omitted policy before admission: Cluster for a new LoadBalancer Service. */
    private static void defaultTrafficPolicy(ObjectNode object, JsonNode old) {
        JsonNode spec = object.get("spec");
        if (!(spec instanceof ObjectNode s) || s.hasNonNull("externalTrafficPolicy")) {
            return;
        }
        String type = s.path("type").asText("");
        if (!"LoadBalancer".equals(type) && !"NodePort".equals(type)) {
            return;
        }
        String previous = old == null ? null : old.path("spec").path("externalTrafficPolicy").asText(null);
        s.put("externalTrafficPolicy", previous != null ? previous : "Cluster");
    }

    private AdmissionRequest request(Endpoint endpoint, String operation, ManifestObject o, String namespace,
            JsonNode object, JsonNode old) {
        String version = o.apiVersion().substring(o.apiVersion().indexOf('/') + 1);
        AdmissionRequest r = new AdmissionRequest();
        r.setUid("juneau-validate-" + (++uid));
        GroupVersionKind kind = new GroupVersionKind(o.group(), o.kind(), version);
        GroupVersionResource res = new GroupVersionResource(o.group(), endpoint.resource(), version);
        r.setKind(kind);
        r.setRequestKind(kind);
        r.setResource(res);
        r.setRequestResource(res);
        r.setName(o.name());
        if (!namespace.isEmpty()) {
            r.setNamespace(namespace);
        }
        r.setOperation(operation);
        UserInfo userInfo = new UserInfo();
        userInfo.setUsername(user);
        userInfo.setGroups(List.of("system:authenticated"));
        r.setUserInfo(userInfo);
        r.setObject(KubeObjects.mapper().convertValue(object, Map.class));
        if (old != null) {
            r.setOldObject(KubeObjects.mapper().convertValue(old, Map.class));
        }
        r.setDryRun(true);
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", "CREATE".equals(operation) ? "CreateOptions" : "UpdateOptions");
        options.put("dryRun", List.of("All"));
        options.put("fieldManager", "juneau-validate");
        r.setOptions(options);
        return r;
    }
}
