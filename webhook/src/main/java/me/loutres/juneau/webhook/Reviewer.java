package me.loutres.juneau.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.Optional;
import me.loutres.juneau.view.ClusterView;

/**
 * What the HTTP envelope asks of the rules: one verdict for one decoded request on one path. Kept this small so the
 * envelope (methods, content types, size caps, decoding, uid echo) is tested without any rule behind it.
 */
@FunctionalInterface
public interface Reviewer {
    /**
     * The verdict. Bad content is a denial, never an exception; an exception here is a defect of the rules and is
     * answered as an errored review (not a 5xx) by the envelope.
     */
    AdmissionResponse review(String path, AdmissionRequest request);

    /**
     * The cluster view the rules read, once there is one: a test that plays writes one by one waits until the view
     * holds the last one, since an informer cache may lag the API server by a moment (docs/allocation.md,
     * "Conflicts stored around admission").
     */
    default Optional<ClusterView> view() {
        return Optional.empty();
    }
}
