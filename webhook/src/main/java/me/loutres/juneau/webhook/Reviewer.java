package me.loutres.juneau.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;

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
}
