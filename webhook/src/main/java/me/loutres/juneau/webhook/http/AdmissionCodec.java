package me.loutres.juneau.webhook.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.stream.Collectors;

/**
 * JSON in and out of the envelope. Decoding binds straight into fabric8's AdmissionReview (one pass on the happy
 * path) and only re-reads a body that failed, to say precisely what is wrong with it.
 */
public final class AdmissionCodec {
    public static final String API_VERSION = "admission.k8s.io/v1";
    public static final String KIND = "AdmissionReview";
    private static final int MAX_REASON = 300;

    /** A decoded review: the request plus the envelope fields to echo. */
    public record Decoded(String apiVersion, String kind, AdmissionRequest request) {
    }

    /**
     * The review as received. fabric8's AdmissionReview pre-fills apiVersion and kind, which would hide a review
     * that lacks them; this shape keeps exactly what was sent.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    static final class Received {
        public String apiVersion;
        public String kind;
        public AdmissionRequest request;
    }

    private final ObjectReader reader;
    private final ObjectReader treeReader;
    private final ObjectMapper mapper;
    private final ObjectWriter writer;

    public AdmissionCodec() {
        mapper = new ObjectMapper();
        new KubernetesSerialization(mapper, false); // fabric8's settings for its model types
        mapper.addMixIn(AdmissionRequest.class, RawJsonMixin.class);
        reader = mapper.readerFor(Received.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        treeReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        writer = mapper.writerFor(AdmissionReview.class);
    }

    public Decoded decode(byte[] body) throws RejectedRequestException {
        if (body.length == 0) {
            throw badRequest("the request body is empty; send an AdmissionReview (" + API_VERSION + ")");
        }
        Received review;
        try {
            review = reader.readValue(body);
        } catch (IOException bindingFailed) {
            throw diagnose(body, bindingFailed);
        }
        if (review == null) {
            throw badRequest("the request body is JSON null; send an AdmissionReview (" + API_VERSION + ")");
        }
        checkEnvelope(review.apiVersion, review.kind, review.request != null,
                review.request == null ? null : review.request.getUid());
        return new Decoded(review.apiVersion, review.kind, review.request);
    }

    /** The response review, carrying {@code apiVersion}/{@code kind} exactly as received. */
    public byte[] encode(Decoded received, AdmissionResponse response) {
        AdmissionReview out = new AdmissionReview();
        out.setApiVersion(received.apiVersion());
        out.setKind(received.kind());
        out.setResponse(response);
        try {
            return writer.writeValueAsBytes(out);
        } catch (JsonProcessingException e) {
            // our own objects always serialise; reaching this is a defect, not a client mistake
            throw new IllegalStateException("cannot encode the AdmissionReview response", e);
        }
    }

    private static void checkEnvelope(String apiVersion, String kind, boolean hasRequest, String uid)
            throws RejectedRequestException {
        if (apiVersion == null || apiVersion.isEmpty()) {
            throw badRequest("apiVersion is missing; only " + API_VERSION + " is served");
        }
        if (!API_VERSION.equals(apiVersion)) {
            throw badRequest("apiVersion \"" + oneLine(apiVersion, 80) + "\" is not served; only " + API_VERSION
                    + " is (set admissionReviewVersions: [v1] in the webhook configuration)");
        }
        if (!KIND.equals(kind)) {
            throw badRequest(kind == null ? "kind is missing; expected " + KIND
                    : "kind \"" + oneLine(kind, 80) + "\" is not served; expected " + KIND);
        }
        if (!hasRequest) {
            throw badRequest("request is missing; an AdmissionReview sent to a webhook carries a request");
        }
        if (uid == null || uid.isEmpty()) {
            throw badRequest("request.uid is missing; it must be echoed in the response");
        }
    }

    /** Re-read a body that did not bind, to name the first problem the way a person would look for it. */
    private RejectedRequestException diagnose(byte[] body, IOException bindingFailed) {
        JsonNode tree;
        try {
            tree = treeReader.readTree(body);
        } catch (IOException notJson) {
            return badRequest("the request body is not valid JSON" + where(notJson) + ": " + jacksonReason(notJson));
        }
        if (tree == null || !tree.isObject()) {
            return badRequest("the request body is not a JSON object; send an AdmissionReview (" + API_VERSION + ")");
        }
        JsonNode request = tree.get("request");
        boolean hasRequest = request != null && !request.isNull();
        if (hasRequest && !request.isObject()) {
            return badRequest("request must be a JSON object, not " + request.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        try {
            checkEnvelope(text(tree.get("apiVersion")), text(tree.get("kind")), hasRequest,
                    hasRequest ? text(request.get("uid")) : null);
        } catch (RejectedRequestException envelopeProblem) {
            return envelopeProblem;
        }
        String field = bindingFailed instanceof JsonMappingException m && !m.getPath().isEmpty()
                ? m.getPath().stream().map(AdmissionCodec::pathElement).collect(Collectors.joining("")) : "";
        return badRequest("the AdmissionReview cannot be read"
                + (field.isEmpty() ? "" : " at " + field.replaceFirst("^\\.", "")) + ": " + jacksonReason(bindingFailed));
    }

    private static String pathElement(JsonMappingException.Reference ref) {
        return ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]";
    }

    private static String text(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        return node.isTextual() ? node.textValue() : node.toString();
    }

    private static String where(IOException e) {
        if (e instanceof JsonProcessingException j) {
            JsonLocation loc = j.getLocation();
            if (loc != null && loc.getLineNr() > 0) {
                return " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
            }
        }
        return "";
    }

    private static String jacksonReason(IOException e) {
        String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        if (e instanceof DatabindException && message != null) {
            // Jackson names Java types; a client needs the JSON shape
            message = message.replaceAll("`[a-z][\\w.$]*\\.(\\w+)`", "$1");
        }
        return oneLine(message == null ? e.getClass().getSimpleName() : message, MAX_REASON);
    }

    static String oneLine(String text, int max) {
        String flat = text.replaceAll("[\\r\\n\\t]+", " ").strip();
        return flat.length() <= max ? flat : flat.substring(0, max) + "...";
    }

    private static RejectedRequestException badRequest(String reason) {
        return new RejectedRequestException(400, reason);
    }
}
