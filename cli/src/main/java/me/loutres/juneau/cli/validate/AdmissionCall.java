package me.loutres.juneau.cli.validate;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.view.ClusterView;

/** How one review reaches the rules: in-process by default, over HTTPS to the webhook in the same-verdict test. */
@FunctionalInterface
public interface AdmissionCall {
    AdmissionResponse review(Endpoint endpoint, AdmissionRequest request, ClusterView view);
}
