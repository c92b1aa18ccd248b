package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;

/** Sends one AdmissionReview to a webhook path, as the API server would. */
@FunctionalInterface
public interface WebhookCaller {
    AdmissionReview call(String path, AdmissionReview review) throws IOException;

    /**
     * The same call on JSON trees, which is what the API server holds and what goes on the wire: a caller that
     * speaks HTTP overrides it so that no review is bound to the fabric8 model and back (the default does that
     * binding, for callers written against the model). Null when there is no answer.
     */
    default JsonNode callJson(String path, ObjectNode review) throws IOException {
        AdmissionReview answer = call(path, Serialization.unmarshal(Json.MAPPER.writeValueAsString(review),
                AdmissionReview.class));
        return answer == null ? null : Json.MAPPER.readTree(Serialization.asJson(answer));
    }
}
