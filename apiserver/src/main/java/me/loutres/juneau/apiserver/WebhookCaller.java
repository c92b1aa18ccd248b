package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.io.IOException;

/** Sends one AdmissionReview to a webhook path, as the API server would. */
@FunctionalInterface
public interface WebhookCaller {
    AdmissionReview call(String path, AdmissionReview review) throws IOException;
}
