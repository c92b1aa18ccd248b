package me.loutres.juneau.webhook.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Keeps {@code request.object}, {@code oldObject} and {@code options} as JSON trees instead of fabric8's typed
 * objects: the rules read trees anyway, so binding to Java types and back would be two wasted passes per request, and
 * a malformed object becomes the rules' denial naming the field rather than an envelope error. With the reader's
 * attribute {@link #DROP_MANAGED_FIELDS} set (the Service paths, whose rules never read it) the objects' {@code
 * metadata.managedFields} is skipped over instead of built: it was about a third of a Service review's parsing.
 */
abstract class RawJsonMixin {
    /** Reader attribute: when {@code Boolean.TRUE}, object and oldObject are read without metadata.managedFields. */
    static final String DROP_MANAGED_FIELDS = "juneau.dropManagedFields";

    @JsonDeserialize(using = ObjectTreeDeserializer.class)
    private Object object;

    @JsonDeserialize(using = ObjectTreeDeserializer.class)
    private Object oldObject;

    @JsonDeserialize(using = TreeDeserializer.class)
    private Object options;

    @JsonDeserialize(using = ObjectTreeDeserializer.class)
    abstract void setObject(Object value);

    @JsonDeserialize(using = ObjectTreeDeserializer.class)
    abstract void setOldObject(Object value);

    @JsonDeserialize(using = TreeDeserializer.class)
    abstract void setOptions(Object value);

    /** Reads any JSON value as a tree. */
    static final class TreeDeserializer extends JsonDeserializer<Object> {
        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            return p.readValueAsTree();
        }
    }

    /**
     * Reads an object as a tree, without {@code metadata.managedFields} when the reader asks for that; the value is still
     * parsed (a body that is not JSON, or nested too deep, is refused as before), only not built.
     */
    static final class ObjectTreeDeserializer extends JsonDeserializer<Object> {
        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!Boolean.TRUE.equals(ctxt.getAttribute(DROP_MANAGED_FIELDS)) || !p.isExpectedStartObjectToken()) {
                return p.readValueAsTree();
            }
            ObjectNode object = ctxt.getNodeFactory().objectNode();
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                p.nextToken();
                object.set(name, name.equals("metadata") && p.isExpectedStartObjectToken() ? metadata(p, ctxt)
                        : ctxt.readTree(p));
            }
            return object;
        }

        private static JsonNode metadata(JsonParser p, DeserializationContext ctxt) throws IOException {
            ObjectNode metadata = ctxt.getNodeFactory().objectNode();
            for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
                JsonToken value = p.nextToken();
                if (name.equals("managedFields")) {
                    metadata.remove(name); // the last of duplicate keys wins in a tree; skipped here, so none
                    if (value.isStructStart()) {
                        p.skipChildren();
                    }
                    continue;
                }
                metadata.set(name, ctxt.readTree(p));
            }
            return metadata;
        }
    }
}
