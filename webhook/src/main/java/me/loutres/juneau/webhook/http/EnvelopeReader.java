package me.loutres.juneau.webhook.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The AdmissionReview envelope in one streaming pass, straight into fabric8's {@link AdmissionRequest}: Jackson's bean
 * binding looks up and calls a property handler per field and builds every object through its generic machinery
 * (with the byte-level skip of managedFields, this made a Service review ×0.82 as costly: BENCHMARKS.md, "The
 * envelope in one pass"). Only the plain shape is read here, the one the API server sends: every field once, of its
 * own JSON type. Anything else (another type, a duplicate, an unknown request field, a null where a value is expected,
 * broken JSON) answers null, and the caller binds the body as before, so what an unusual or bad body gets, a value or
 * the words of its refusal, is unchanged. The objects are trees, as {@link RawJsonMixin} reads them, and without
 * {@code metadata.managedFields} when asked.
 */
final class EnvelopeReader {
    private final ObjectMapper mapper;
    private final DefaultDeserializationContext contexts;
    private final DeserializationConfig config;
    private final JavaType treeType;
    /** Jackson's tree deserializer, looked up on the first body (it depends on the configuration only), then kept. */
    private volatile JsonDeserializer<Object> treeDeserializer;

    EnvelopeReader(ObjectMapper mapper) {
        this.mapper = mapper;
        this.contexts = (DefaultDeserializationContext) mapper.getDeserializationContext();
        this.config = mapper.getDeserializationConfig();
        this.treeType = mapper.constructType(JsonNode.class);
    }

    /**
     * The review, or null when the body is not the plain shape (then bind it instead).
     *
     * @param dropManagedFields read object and oldObject without metadata.managedFields
     */
    AdmissionCodec.Received read(byte[] body, boolean dropManagedFields) {
        // the skipped managedFields is blanked in the bytes the parser reads (JsonSkipper): a copy, so that a body
        // falling back is bound from what was sent
        byte[] input = dropManagedFields ? body.clone() : body;
        try (JsonParser p = mapper.getFactory().createParser(input)) {
            config.initialize(p); // the parser settings of the mapper's configuration, as its own reading applies them
            Pass pass = new Pass(p, input, contexts.createInstance(config, p, null), dropManagedFields);
            return pass.review();
        } catch (IOException | NotPlain e) {
            return null;
        }
    }

    /** The body left the plain shape: bind it instead. Thrown without a stack trace; never leaves this class. */
    private static final class NotPlain extends Exception {
        private static final long serialVersionUID = 1L;
        static final NotPlain INSTANCE = new NotPlain();

        private NotPlain() {
            super("not the plain shape", null, false, false);
        }
    }

    /** One body's reading. */
    private final class Pass {
        private final JsonParser p;
        private final byte[] input;
        private final DeserializationContext ctxt;
        private final JsonDeserializer<Object> trees;
        private final boolean dropManagedFields;

        Pass(JsonParser p, byte[] input, DeserializationContext ctxt, boolean dropManagedFields) throws IOException {
            this.p = p;
            this.input = input;
            this.ctxt = ctxt;
            JsonDeserializer<Object> found = treeDeserializer;
            if (found == null) {
                found = ctxt.findRootValueDeserializer(treeType);
                treeDeserializer = found;
            }
            this.trees = found;
            this.dropManagedFields = dropManagedFields;
        }

        AdmissionCodec.Received review() throws IOException, NotPlain {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw NotPlain.INSTANCE;
            }
            AdmissionCodec.Received review = new AdmissionCodec.Received();
            int seen = 0;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken token = p.nextToken();
                switch (name) {
                    case "apiVersion" -> {
                        seen = once(seen, 1);
                        review.apiVersion = string(token);
                    }
                    case "kind" -> {
                        seen = once(seen, 2);
                        review.kind = string(token);
                    }
                    case "request" -> {
                        seen = once(seen, 4);
                        review.request = request(token);
                    }
                    default -> p.skipChildren(); // ignored, as the bean binding ignores it
                }
            }
            if (p.nextToken() != null) {
                throw NotPlain.INSTANCE; // trailing tokens: the binding names them
            }
            return review;
        }

        private AdmissionRequest request(JsonToken token) throws IOException, NotPlain {
            expect(token, JsonToken.START_OBJECT);
            AdmissionRequest request = new AdmissionRequest();
            int seen = 0;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                switch (name) {
                    case "uid" -> {
                        seen = once(seen, 1);
                        request.setUid(string(value));
                    }
                    case "kind" -> {
                        seen = once(seen, 1 << 1);
                        request.setKind(kind(value));
                    }
                    case "resource" -> {
                        seen = once(seen, 1 << 2);
                        request.setResource(resource(value));
                    }
                    case "subResource" -> {
                        seen = once(seen, 1 << 3);
                        request.setSubResource(string(value));
                    }
                    case "requestKind" -> {
                        seen = once(seen, 1 << 4);
                        request.setRequestKind(kind(value));
                    }
                    case "requestResource" -> {
                        seen = once(seen, 1 << 5);
                        request.setRequestResource(resource(value));
                    }
                    case "requestSubResource" -> {
                        seen = once(seen, 1 << 6);
                        request.setRequestSubResource(string(value));
                    }
                    case "name" -> {
                        seen = once(seen, 1 << 7);
                        request.setName(string(value));
                    }
                    case "namespace" -> {
                        seen = once(seen, 1 << 8);
                        request.setNamespace(string(value));
                    }
                    case "operation" -> {
                        seen = once(seen, 1 << 9);
                        request.setOperation(string(value));
                    }
                    case "userInfo" -> {
                        seen = once(seen, 1 << 10);
                        request.setUserInfo(userInfo(value));
                    }
                    case "object" -> {
                        seen = once(seen, 1 << 11);
                        request.setObject(object(value));
                    }
                    case "oldObject" -> {
                        seen = once(seen, 1 << 12);
                        request.setOldObject(object(value));
                    }
                    case "options" -> {
                        seen = once(seen, 1 << 13);
                        request.setOptions(value == JsonToken.VALUE_NULL ? null : trees.deserialize(p, ctxt));
                    }
                    case "dryRun" -> {
                        seen = once(seen, 1 << 14);
                        if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
                            throw NotPlain.INSTANCE;
                        }
                        request.setDryRun(value == JsonToken.VALUE_TRUE);
                    }
                    default -> throw NotPlain.INSTANCE; // fabric8 keeps it as an additional property
                }
            }
            return request;
        }

        private GroupVersionKind kind(JsonToken token) throws IOException, NotPlain {
            GroupVersionKind kind = new GroupVersionKind();
            groupVersionAnd(token, "kind", kind::setGroup, kind::setVersion, kind::setKind);
            return kind;
        }

        private GroupVersionResource resource(JsonToken token) throws IOException, NotPlain {
            GroupVersionResource resource = new GroupVersionResource();
            groupVersionAnd(token, "resource", resource::setGroup, resource::setVersion, resource::setResource);
            return resource;
        }

        /**
         * An object of {@code group}, {@code version} and {@code last}, each a string at most once and nothing else,
         * handed to the three setters; any other shape is left to the bean binding.
         */
        private void groupVersionAnd(JsonToken token, String last, Consumer<String> group, Consumer<String> version,
                Consumer<String> lastOne) throws IOException, NotPlain {
            expect(token, JsonToken.START_OBJECT);
            int seen = 0;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                if (name.equals("group")) {
                    seen = once(seen, 1);
                    group.accept(string(value));
                } else if (name.equals("version")) {
                    seen = once(seen, 2);
                    version.accept(string(value));
                } else if (name.equals(last)) {
                    seen = once(seen, 4);
                    lastOne.accept(string(value));
                } else {
                    throw NotPlain.INSTANCE;
                }
            }
        }

        private UserInfo userInfo(JsonToken token) throws IOException, NotPlain {
            expect(token, JsonToken.START_OBJECT);
            UserInfo user = new UserInfo();
            int seen = 0;
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                switch (name) {
                    case "username" -> {
                        seen = once(seen, 1);
                        user.setUsername(string(value));
                    }
                    case "uid" -> {
                        seen = once(seen, 2);
                        user.setUid(string(value));
                    }
                    case "groups" -> {
                        seen = once(seen, 4);
                        user.setGroups(strings(value));
                    }
                    case "extra" -> {
                        seen = once(seen, 8);
                        expect(value, JsonToken.START_OBJECT);
                        Map<String, List<String>> extra = new LinkedHashMap<>();
                        for (String key = p.nextFieldName(); key != null; key = p.nextFieldName()) {
                            if (extra.put(key, strings(p.nextToken())) != null) {
                                throw NotPlain.INSTANCE;
                            }
                        }
                        user.setExtra(extra);
                    }
                    default -> throw NotPlain.INSTANCE;
                }
            }
            return user;
        }

        private List<String> strings(JsonToken token) throws IOException, NotPlain {
            expect(token, JsonToken.START_ARRAY);
            List<String> list = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                list.add(string(t));
            }
            return list;
        }

        /** request.object or oldObject as RawJsonMixin reads it: a tree, null for JSON null. */
        private Object object(JsonToken token) throws IOException {
            if (token == JsonToken.VALUE_NULL) {
                return null;
            }
            if (!dropManagedFields || token != JsonToken.START_OBJECT) {
                return trees.deserialize(p, ctxt);
            }
            ObjectNode object = ctxt.getNodeFactory().objectNode();
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                object.set(name, name.equals("metadata") && value == JsonToken.START_OBJECT ? metadata() : tree(value));
            }
            return object;
        }

        private JsonNode metadata() throws IOException {
            ObjectNode metadata = ctxt.getNodeFactory().objectNode();
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                if (name.equals("managedFields")) {
                    metadata.remove(name); // the last of duplicate keys wins in a tree; skipped here, so none
                    if (value.isStructStart()) {
                        skip();
                    }
                    continue;
                }
                metadata.set(name, tree(value));
            }
            return metadata;
        }

        /**
         * Past the array or object just opened. Its inside is blanked to spaces when {@link JsonSkipper} vouches for it
         * (so Jackson's skip meets the closing bracket next), else Jackson skips it all, judging it as before.
         */
        private void skip() throws IOException {
            long at = p.currentLocation().getByteOffset();
            if (at > 0 && at <= input.length) {
                int from = (int) at;
                int depthLeft = p.streamReadConstraints().getMaxNestingDepth() - p.getParsingContext().getNestingDepth();
                int end = JsonSkipper.end(input, from, input.length, depthLeft);
                if (end > from) {
                    Arrays.fill(input, from, end, (byte) ' ');
                }
            }
            p.skipChildren();
        }

        private JsonNode tree(JsonToken token) throws IOException {
            return token == JsonToken.VALUE_NULL ? ctxt.getNodeFactory().nullNode() : (JsonNode) trees.deserialize(p, ctxt);
        }

        private String string(JsonToken token) throws IOException, NotPlain {
            expect(token, JsonToken.VALUE_STRING);
            return p.getText();
        }

        private void expect(JsonToken token, JsonToken expected) throws NotPlain {
            if (token != expected) {
                throw NotPlain.INSTANCE;
            }
        }

        private int once(int seen, int bit) throws NotPlain {
            if ((seen & bit) != 0) {
                throw NotPlain.INSTANCE;
            }
            return seen | bit;
        }
    }
}
