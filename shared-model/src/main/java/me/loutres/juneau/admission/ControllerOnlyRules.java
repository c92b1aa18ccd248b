package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.KubeObjects;

/**
 * SPEC §2.2: ServiceLoadBalancers and ARPAdvertisements are written only by the controller (main resource and
 * {@code status}); the garbage collector and the namespace controller may delete them, and anyone may remove
 * finalizers (break-glass once the controller is gone). Content rules run after, for the controller's own writes.
 */
final class ControllerOnlyRules implements KindRules {
    private static final Set<String> DELETERS = Set.of(JuneauConstants.GARBAGE_COLLECTOR_USERNAME,
            JuneauConstants.NAMESPACE_CONTROLLER_USERNAME);

    private final AdmissionSettings settings;
    private final String kind;
    private final KindRules content;

    private ControllerOnlyRules(AdmissionSettings settings, String kind, KindRules content) {
        this.settings = settings;
        this.kind = kind;
        this.content = content;
    }

    static ControllerOnlyRules serviceLoadBalancers(AdmissionSettings settings) {
        return new ControllerOnlyRules(settings, JuneauConstants.KIND_SERVICE_LOAD_BALANCER, (r, v) -> Verdict.allow());
    }

    static ControllerOnlyRules arpAdvertisements(AdmissionSettings settings, KindRules content) {
        return new ControllerOnlyRules(settings, JuneauConstants.KIND_ARP_ADVERTISEMENT, content);
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        if (!(review.isCreate() || review.isUpdate() || review.isDelete())) {
            return Verdict.allow();
        }
        if (settings.controllerUsernames().contains(review.username())) {
            return review.isDelete() ? Verdict.allow() : content.review(review, view);
        }
        if (review.isDelete() && DELETERS.contains(review.username())) {
            return Verdict.allow();
        }
        if (review.isUpdate() && onlyRemovesFinalizers(review.oldObject(), review.object())) {
            return Verdict.allow();
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
        if (oldObject == null || newObject == null) {
            return false;
        }
        List<String> before = strings(oldObject.path("metadata").path("finalizers"));
        List<String> after = strings(newObject.path("metadata").path("finalizers"));
        if (after.size() >= before.size() || !before.containsAll(after)) {
            return false;
        }
        return withoutServerFields(oldObject).equals(withoutServerFields(newObject));
    }

    private static JsonNode withoutServerFields(JsonNode o) {
        ObjectNode copy = KubeObjects.copy(o);
        JsonNode meta = copy.get("metadata");
        if (meta instanceof ObjectNode m) {
            m.remove(List.of("finalizers", "resourceVersion", "managedFields", "generation"));
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
