package me.loutres.juneau.agent.own;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.UnreadableObjectException;

/**
 * One ARPAdvertisement as the API server delivered it, read the one way every part of Juneau reads objects
 * ({@link me.loutres.juneau.view.KubeReader}: null is absent, a value of the wrong type is a one-line problem naming
 * field and value). The agent watches advertisements generically so that one malformed object is skipped on its own
 * instead of failing the whole list or watch (a typed informer cannot decode it and stops delivering anything).
 *
 * @param name            metadata.name ("" when even that is missing)
 * @param resourceVersion metadata.resourceVersion, to read each version once
 * @param advertisement   the typed object, or null when it cannot be read
 * @param problem         why it cannot be read, or null
 */
public record AdvertisementRead(String name, String resourceVersion, ARPAdvertisement advertisement, String problem) {

    public static AdvertisementRead of(GenericKubernetesResource raw) {
        ObjectMeta meta = raw.getMetadata();
        String name = meta == null || meta.getName() == null ? "" : meta.getName();
        String version = meta == null ? null : meta.getResourceVersion();
        JsonNode tree;
        try {
            tree = KubeObjects.tree(raw);
        } catch (UnreadableObjectException e) {
            return new AdvertisementRead(name, version, null, e.getMessage());
        }
        try {
            return new AdvertisementRead(name, version, read(tree), null);
        } catch (UnreadableObjectException e) {
            if (tree instanceof ObjectNode o && o.has("status")) {
                // the status is ours to write: a damaged one must not silence a good spec; it is written again
                ObjectNode withoutStatus = KubeObjects.copy(o);
                withoutStatus.remove("status");
                try {
                    return new AdvertisementRead(name, version, read(withoutStatus), null);
                } catch (UnreadableObjectException ignored) {
                    // the spec or metadata is damaged too: report the first reading's problem
                }
            }
            return new AdvertisementRead(name, version, null, e.getMessage());
        }
    }

    private static ARPAdvertisement read(JsonNode tree) {
        return KubeObjects.read(tree, ARPAdvertisement.class, "ARPAdvertisement");
    }

    public boolean readable() {
        return advertisement != null;
    }
}
