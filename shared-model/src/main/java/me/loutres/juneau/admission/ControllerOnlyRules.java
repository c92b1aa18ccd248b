package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.KubeObjects;

/**
 * docs/admission.md: ServiceLoadBalancers and ARPAdvertisements are written only by the controller (main resource and
 * {@code status}). The exceptions are a list of {@link Exemption}s, each a named predicate over the review: the
 * garbage collector and the namespace controller may delete (also as {@code system:kube-controller-manager}), the
 * garbage collector may change only {@code metadata.ownerReferences} (orphaning), anyone may remove finalizers
 * (break-glass once the controller is gone), and anyone may change labels and annotations but Juneau's own keys. Content rules run after, for the controller's own writes.
 * The node agent may write the status of an ARPAdvertisement of its node only ({@link AgentStatusRule}); its
 * denials say which part of that it broke, so it is a rule of its own rather than an exemption.
 */
final class ControllerOnlyRules implements KindRules {
    /** Who deletes dependents and namespaces: the per-controller accounts, or the controller manager's own. */
    static final Set<String> DELETERS = Set.of(JuneauConstants.GARBAGE_COLLECTOR_USERNAME,
            JuneauConstants.NAMESPACE_CONTROLLER_USERNAME, JuneauConstants.KUBE_CONTROLLER_MANAGER_USERNAME);
    /** Who orphans dependents (removes an ownerReference) when the owner is deleted with propagation Orphan. */
    static final Set<String> ORPHANERS = Set.of(JuneauConstants.GARBAGE_COLLECTOR_USERNAME,
            JuneauConstants.KUBE_CONTROLLER_MANAGER_USERNAME);

    /** A write that someone other than the controller may make; {@code name} says which, for tests and docs. */
    record Exemption(String name, java.util.function.Predicate<Review> allows) {
    }

    static final Exemption GARBAGE_COLLECTION = new Exemption("DELETE by the garbage collector or namespace controller",
            r -> r.isDelete() && DELETERS.contains(r.username()));
    static final Exemption ORPHANING = new Exemption("UPDATE of only metadata.ownerReferences by the garbage collector",
            r -> r.isUpdate() && r.subResource().isEmpty() && ORPHANERS.contains(r.username())
                    && onlyChanges(r.oldObject(), r.object(), "ownerReferences"));
    static final Exemption BREAK_GLASS = new Exemption("UPDATE that only removes finalizers, by anyone",
            r -> r.isUpdate() && r.subResource().isEmpty() && onlyRemovesFinalizers(r.oldObject(), r.object()));
    /**
     * Users label and annotate what they see (a team label, a backup tool's annotation); the controller's decisions
     * are in the spec, the status and Juneau's own keys, which stay the controller's (docs/admission.md).
     */
    static final Exemption USER_METADATA = new Exemption(
            "UPDATE of only labels and annotations outside Juneau's own keys, by anyone",
            r -> r.isUpdate() && r.subResource().isEmpty() && onlyChangesUserMetadata(r.oldObject(), r.object()));

    private final AdmissionSettings settings;
    private final String kind;
    private final KindRules content;
    private final List<Exemption> exemptions;

    private ControllerOnlyRules(AdmissionSettings settings, String kind, KindRules content, List<Exemption> exemptions) {
        this.settings = settings;
        this.kind = kind;
        this.content = content;
        this.exemptions = List.copyOf(exemptions);
    }

    static ControllerOnlyRules serviceLoadBalancers(AdmissionSettings settings) {
        return new ControllerOnlyRules(settings, JuneauConstants.KIND_SERVICE_LOAD_BALANCER, (r, v) -> Verdict.allow(),
                List.of(GARBAGE_COLLECTION, ORPHANING, BREAK_GLASS, USER_METADATA));
    }

    /** {@code extra}: further exemptions for ARPAdvertisements (the node agent's status writes, docs/admission.md). */
    static ControllerOnlyRules arpAdvertisements(AdmissionSettings settings, KindRules content, Exemption... extra) {
        List<Exemption> all = new ArrayList<>(List.of(GARBAGE_COLLECTION, ORPHANING, BREAK_GLASS, USER_METADATA));
        all.addAll(List.of(extra));
        return new ControllerOnlyRules(settings, JuneauConstants.KIND_ARP_ADVERTISEMENT, content, all);
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        if (!(review.isCreate() || review.isUpdate() || review.isDelete())) {
            return Verdict.allow();
        }
        if (settings.controllerUsernames().contains(review.username())) {
            return review.isDelete() ? Verdict.allow() : content.review(review, view);
        }
        if (JuneauConstants.KIND_ARP_ADVERTISEMENT.equals(kind) && settings.agentUsernames().contains(review.username())) {
            return AgentStatusRule.review(review);
        }
        for (Exemption e : exemptions) {
            if (e.allows().test(review)) {
                return Verdict.allow();
            }
        }
        if (review.isDelete()) {
            // the object goes with its Service: say how to get there, not only that this way is closed
            return Verdict.deny(kind + " " + describe(review) + " is managed by Juneau; to remove it, delete "
                    + serviceOf(review) + " or change its type from LoadBalancer, and the controller deletes it"
                    + " (request by " + Texts.quote(review.username()) + ")");
        }
        return Verdict.deny(kind + " " + describe(review) + " is managed by Juneau; edit " + serviceOf(review)
                + " instead (request by " + Texts.quote(review.username()) + ")");
    }

    private String describe(Review review) {
        String ns = review.objectNamespace();
        return ns.isEmpty() ? review.objectName() : ns + "/" + review.objectName();
    }

    /** The Service the object belongs to, as the user should edit it. */
    private String serviceOf(Review review) {
        if (JuneauConstants.KIND_SERVICE_LOAD_BALANCER.equals(kind)) {
            return "Service " + review.objectNamespace() + "/" + review.objectName();
        }
        JsonNode labels = review.reviewed() == null ? null : review.reviewed().path("metadata").path("labels");
        String ns = labels == null ? "" : labels.path(JuneauConstants.LABEL_SERVICE_NAMESPACE).asText("");
        String name = labels == null ? "" : labels.path(JuneauConstants.LABEL_SERVICE_NAME).asText("");
        return ns.isEmpty() || name.isEmpty() ? "the Service it announces" : "Service " + ns + "/" + name;
    }

    /**
     * True when the new object equals the old one except that some finalizers are gone (and the fields the API server
     * itself maintains on every write).
     */
    static boolean onlyRemovesFinalizers(JsonNode oldObject, JsonNode newObject) {
        if (!bothObjects(oldObject, newObject)) {
            return false;
        }
        List<String> before = strings(oldObject.path("metadata").path("finalizers"));
        List<String> after = strings(newObject.path("metadata").path("finalizers"));
        if (after.size() >= before.size() || !before.containsAll(after)) {
            return false;
        }
        return withoutServerFields(oldObject).equals(withoutServerFields(newObject));
    }

    /**
     * True when the new object differs from the old one in the metadata field {@code field} and nowhere else (but
     * the fields the API server itself maintains on every write).
     */
    static boolean onlyChanges(JsonNode oldObject, JsonNode newObject, String field) {
        if (!bothObjects(oldObject, newObject)) {
            return false;
        }
        if (oldObject.path("metadata").path(field).equals(newObject.path("metadata").path(field))) {
            return false;
        }
        return without(oldObject, field).equals(without(newObject, field));
    }

    /**
     * True when the new object differs from the old one only in labels and annotations (and the fields the API server
     * maintains), and no changed key is one of Juneau's ({@code juneau.loutres.me/...} or
     * {@code <x>.juneau.loutres.me/...}).
     */
    static boolean onlyChangesUserMetadata(JsonNode oldObject, JsonNode newObject) {
        if (!bothObjects(oldObject, newObject)) {
            return false;
        }
        for (String field : List.of("labels", "annotations")) {
            JsonNode before = oldObject.path("metadata").path(field);
            JsonNode after = newObject.path("metadata").path(field);
            Set<String> keys = new TreeSet<>();
            before.fieldNames().forEachRemaining(keys::add);
            after.fieldNames().forEachRemaining(keys::add);
            for (String key : keys) {
                if (!before.path(key).equals(after.path(key)) && isJuneauKey(key)) {
                    return false;
                }
            }
        }
        return without(without(oldObject, "labels"), "annotations")
                .equals(without(without(newObject, "labels"), "annotations"));
    }

    static boolean isJuneauKey(String key) {
        int slash = key.indexOf('/');
        String prefix = slash < 0 ? "" : key.substring(0, slash);
        return prefix.equals(JuneauConstants.GROUP) || prefix.endsWith("." + JuneauConstants.GROUP);
    }

    /** An exemption compares two maps; anything else (a string where the object should be) is no exemption. */
    private static boolean bothObjects(JsonNode oldObject, JsonNode newObject) {
        return oldObject != null && newObject != null && oldObject.isObject() && newObject.isObject();
    }

    private static JsonNode withoutServerFields(JsonNode o) {
        return without(o, "finalizers");
    }

    private static JsonNode without(JsonNode o, String field) {
        ObjectNode copy = KubeObjects.copy(o);
        JsonNode meta = copy.get("metadata");
        if (meta instanceof ObjectNode m) {
            m.remove(List.of(field, "resourceVersion", "managedFields", "generation"));
        }
        return copy;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
