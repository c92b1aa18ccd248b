package me.loutres.juneau.webhook.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * JSON in and out of the envelope. Decoding reads the plain envelope in one streaming pass ({@link EnvelopeReader});
 * any other body is bound into fabric8's AdmissionReview by Jackson, and re-read only if that failed, to say precisely
 * what is wrong with it.
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

    /** The configured readers and writer; built once, on first use or by {@link #prepare()}. */
    private static final class Mappers {
        final ObjectReader reader;
        final ObjectReader readerWithoutManagedFields;
        final ObjectReader treeReader;
        final ObjectWriter writer;
        final EnvelopeReader envelope;

        Mappers() {
            // field names are not interned: a client choosing thousands of distinct keys would otherwise keep
            // Jackson's small intern cache filling and clearing (String.intern each time) for every request
            ObjectMapper mapper = new ObjectMapper(JsonFactory.builder().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build());
            new KubernetesSerialization(mapper, false); // fabric8's settings for its model types
            mapper.addMixIn(AdmissionRequest.class, RawJsonMixin.class);
            reader = mapper.readerFor(Received.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
            readerWithoutManagedFields = reader.withAttribute(RawJsonMixin.DROP_MANAGED_FIELDS, Boolean.TRUE);
            treeReader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
            writer = mapper.writerFor(AdmissionReview.class);
            allowedTemplate = AllowedTemplate.of(writer);
            envelope = new EnvelopeReader(mapper);
        }

        final AllowedTemplate allowedTemplate;
    }

    /**
     * The bytes of the most common answer, "allowed" with nothing else, around its uid: written once by the same writer,
     * then reused with each request's uid (a Service review's encoding was a tenth of its own cost, BENCHMARKS.md,
     * "Webhook steady and cold"). Only for a uid that JSON writes as it is (printable ASCII without quote or backslash,
     * what the API server sends: a UUID); anything else goes through the writer.
     */
    record AllowedTemplate(byte[] head, byte[] tail) {
        private static final String MARK = "juneau-uid-mark";

        static AllowedTemplate of(ObjectWriter writer) {
            AdmissionResponse allowed = new AdmissionResponse();
            allowed.setAllowed(true);
            allowed.setUid(MARK);
            AdmissionReview review = new AdmissionReview();
            review.setApiVersion(API_VERSION);
            review.setKind(KIND);
            review.setResponse(allowed);
            byte[] all;
            try {
                all = writer.writeValueAsBytes(review);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot encode the AdmissionReview response", e);
            }
            String text = new String(all, java.nio.charset.StandardCharsets.ISO_8859_1);
            int at = text.indexOf(MARK);
            if (at < 0 || text.indexOf(MARK, at + 1) >= 0) {
                throw new IllegalStateException("the allowed answer's uid is not where it was expected: " + text);
            }
            return new AllowedTemplate(java.util.Arrays.copyOfRange(all, 0, at),
                    java.util.Arrays.copyOfRange(all, at + MARK.length(), all.length));
        }

        byte[] with(String uid) {
            byte[] out = new byte[head.length + uid.length() + tail.length];
            System.arraycopy(head, 0, out, 0, head.length);
            for (int i = 0; i < uid.length(); i++) {
                out[head.length + i] = (byte) uid.charAt(i); // printable ASCII only (fits)
            }
            System.arraycopy(tail, 0, out, head.length + uid.length(), tail.length);
            return out;
        }

        /** True when the answer is exactly "allowed" for this uid, with nothing else set, in a v1 AdmissionReview. */
        static boolean fits(Decoded received, AdmissionResponse r) {
            return API_VERSION.equals(received.apiVersion()) && KIND.equals(received.kind())
                    && Boolean.TRUE.equals(r.getAllowed()) && r.getStatus() == null && r.getPatch() == null
                    && r.getPatchType() == null && (r.getWarnings() == null || r.getWarnings().isEmpty())
                    && (r.getAuditAnnotations() == null || r.getAuditAnnotations().isEmpty())
                    && r.getAdditionalProperties().isEmpty() && plainUid(r.getUid());
        }

        private static boolean plainUid(String uid) {
            if (uid == null || uid.isEmpty() || uid.length() > 256) {
                return false;
            }
            for (int i = 0; i < uid.length(); i++) {
                char c = uid.charAt(i);
                if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                    return false;
                }
            }
            return true;
        }
    }


    private volatile Mappers mappers;

    /**
     * Builds the mappers now rather than on the first request. Configuring fabric8's serialization takes a noticeable
     * part of a start-up; the embedded server calls this on a thread of its own ({@code webhook-codec}, see
     * {@code WebhookAssembly}), beside the one that opens the cluster view and the one that starts TLS and Jetty.
     */
    public AdmissionCodec prepare() {
        mappers();
        return this;
    }

    private Mappers mappers() {
        Mappers m = mappers;
        if (m == null) {
            synchronized (this) {
                m = mappers;
                if (m == null) {
                    m = new Mappers();
                    mappers = m;
                }
            }
        }
        return m;
    }

    public Decoded decode(byte[] body) throws RejectedRequestException {
        return decode(body, true);
    }

    /**
     * The review; with {@code keepManagedFields} false its objects come without {@code metadata.managedFields}, for
     * rules that never read it ({@code Endpoint.readsManagedFields}). Problems are found and named as with it.
     */
    public Decoded decode(byte[] body, boolean keepManagedFields) throws RejectedRequestException {
        if (body.length == 0) {
            throw badRequest("the request body is empty; send an AdmissionReview (" + API_VERSION + ")");
        }
        Mappers m = mappers();
        Received review = m.envelope.read(body, !keepManagedFields);
        return checked(review != null ? review : bind(m, body, keepManagedFields));
    }

    /**
     * The review as decoded by Jackson's bean binding alone, what {@link EnvelopeReader} falls back to for a body not
     * of the plain shape; kept apart so tests can hold the one-pass reading to it.
     */
    Decoded decodeByBinding(byte[] body, boolean keepManagedFields) throws RejectedRequestException {
        if (body.length == 0) {
            throw badRequest("the request body is empty; send an AdmissionReview (" + API_VERSION + ")");
        }
        return checked(bind(mappers(), body, keepManagedFields));
    }

    private static Decoded checked(Received review) throws RejectedRequestException {
        if (review == null) {
            throw badRequest("the request body is JSON null; send an AdmissionReview (" + API_VERSION + ")");
        }
        checkEnvelope(review.apiVersion, review.kind, review.request != null,
                review.request == null ? null : review.request.getUid());
        return new Decoded(review.apiVersion, review.kind, review.request);
    }

    /** The envelope by bean binding; a body that does not bind is re-read to say what is wrong with it. */
    private Received bind(Mappers m, byte[] body, boolean keepManagedFields) throws RejectedRequestException {
        try {
            return (keepManagedFields ? m.reader : m.readerWithoutManagedFields).readValue(body);
        } catch (IOException bindingFailed) {
            throw diagnose(body, bindingFailed);
        }
    }

    /** The envelope in one pass, or null when the body is not of the plain shape; for tests. */
    Received readInOnePass(byte[] body, boolean keepManagedFields) {
        return mappers().envelope.read(body, !keepManagedFields);
    }

    /** The response review, carrying {@code apiVersion}/{@code kind} exactly as received. */
    public byte[] encode(Decoded received, AdmissionResponse response) {
        if (AllowedTemplate.fits(received, response)) {
            return mappers().allowedTemplate.with(response.getUid());
        }
        return encodeWithWriter(received, response);
    }

    /** The response through fabric8's model and Jackson's writer, as every answer but the plain "allowed" is. */
    byte[] encodeWithWriter(Decoded received, AdmissionResponse response) {
        AdmissionReview out = new AdmissionReview();
        out.setApiVersion(received.apiVersion());
        out.setKind(received.kind());
        out.setResponse(response);
        try {
            return mappers().writer.writeValueAsBytes(out);
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
            tree = mappers().treeReader.readTree(body);
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
        if (bindingFailed instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = m.getPath().stream().map(AdmissionCodec::pathElement).collect(Collectors.joining(""))
                    .replaceFirst("^\\.", "");
            JsonNode actual = at(tree, m.getPath());
            String expected = m instanceof MismatchedInputException mismatch ? shape(mismatch.getTargetType()) : null;
            if (expected != null && actual != null) {
                return badRequest("the AdmissionReview cannot be read: " + field + " must be " + expected + ", not "
                        + shape(actual));
            }
            return badRequest("the AdmissionReview cannot be read at " + field + ": " + jacksonReason(bindingFailed));
        }
        return badRequest("the AdmissionReview cannot be read: " + jacksonReason(bindingFailed));
    }

    /** The node a Jackson path points at, or null when the tree does not have it. */
    private static JsonNode at(JsonNode tree, List<JsonMappingException.Reference> path) {
        JsonNode node = tree;
        for (JsonMappingException.Reference ref : path) {
            if (node == null) {
                return null;
            }
            node = ref.getFieldName() != null ? node.get(ref.getFieldName()) : node.get(ref.getIndex());
        }
        return node;
    }

    /** The JSON shape a Java type is read from, as a client writes it. */
    private static String shape(Class<?> type) {
        if (type == null) {
            return null;
        }
        if (type == String.class || type.isEnum()) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "an object";
    }

    private static String shape(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
            case BINARY -> "binary data";
        };
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

    /**
     * Jackson's reason in the words of JSON: limits are named as such, Java type names and Jackson's own hints
     * (backquoted) are dropped, so a client never reads a class name.
     */
    static String jacksonReason(IOException e) {
        String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        if (message == null) {
            return "unreadable input";
        }
        if (message.contains("nesting depth")) {
            return "values are nested deeper than " + StreamReadConstraints.DEFAULT_MAX_DEPTH + " levels";
        }
        if (message.startsWith("Number value length") || message.startsWith("Number length")) {
            return "a number is longer than " + StreamReadConstraints.DEFAULT_MAX_NUM_LEN + " characters";
        }
        if (message.startsWith("String value length") || message.startsWith("String length")) {
            return "a string is longer than the reader accepts";
        }
        String words = message.replaceAll("\\(through reference chain[^)]*\\)", "")
                .replaceAll("\\s*\\(for [^)]*\\)", "")
                .replaceAll("`[^`]*`", "")
                .replaceAll("\\b(?:[a-z_$][a-z0-9_$]*\\.)+([A-Z][A-Za-z0-9_$]*)", "$1")
                .replaceAll("\\b(?:JsonToken|JsonParser|ObjectMapper|StreamReadConstraints|StreamReadFeature|JsonReadFeature)"
                        + "\\.?[A-Z_]*", "")
                .replaceAll("\\(\\s*\\)", "")
                .replaceAll(";?\\s*enable\\s+to accept[^;]*", "")
                .replaceAll(" {2,}", " ");
        return oneLine(words, MAX_REASON);
    }

    static String oneLine(String text, int max) {
        String flat = text.replaceAll("[\\r\\n\\t]+", " ").strip();
        return flat.length() <= max ? flat : flat.substring(0, max) + "...";
    }

    private static RejectedRequestException badRequest(String reason) {
        return new RejectedRequestException(400, reason);
    }
}
