package me.loutres.juneau.webhook.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;

/**
 * Keeps {@code request.object}, {@code oldObject} and {@code options} as JSON trees instead of fabric8's typed
 * objects: the rules read trees anyway, so binding to Java types and back would be two wasted passes per request, and
 * a malformed object becomes the rules' denial naming the field rather than an envelope error.
 */
abstract class RawJsonMixin {
    @JsonDeserialize(using = TreeDeserializer.class)
    private Object object;

    @JsonDeserialize(using = TreeDeserializer.class)
    private Object oldObject;

    @JsonDeserialize(using = TreeDeserializer.class)
    private Object options;

    @JsonDeserialize(using = TreeDeserializer.class)
    abstract void setObject(Object value);

    @JsonDeserialize(using = TreeDeserializer.class)
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
}
