package me.loutres.juneau.view;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a JSON tree would bind to a fabric8 model type through {@link KubeReader#read} without any problem and with
 * every field taken from its natural JSON type (a string from a string, an integer from an integer that fits, a list
 * from an array without null entries, a map of strings from an object of strings, a model object from an object whose
 * unknown fields its {@code additionalProperties} takes). The walk follows the type's properties as Jackson sees them,
 * so it needs no list of fields kept by hand.
 *
 * <p>A rule that reads only a few fields can then read them from the tree instead of binding the whole object, and
 * still answer exactly as the binding would: when this says no (a coercion, a wrong type, a null, a type it does not
 * know), the caller binds as before and gets the binding's own result or problem. The webhook's Service review reads
 * Services this way (BENCHMARKS.md, "Webhook steady and cold").
 */
public final class PlainShape {
    private static final Map<Class<?>, Bean> BEANS = new ConcurrentHashMap<>();

    private PlainShape() {
    }

    /**
     * True when {@link KubeReader#read}{@code (node, type, kind)} returns a value without a problem and binds every field
     * of the tree from its natural JSON type; false when it might not (then read it).
     */
    public static boolean readsPlainly(JsonNode node, Class<?> type) {
        if (node == null || !node.isObject()) {
            return false;
        }
        JsonNode metadata = node.get("metadata");
        if (HasMetadata.class.isAssignableFrom(type) && (metadata == null || !metadata.isObject())) {
            return false;
        }
        // the reader drops metadata.managedFields before binding (KubeReader.withoutManagedFields)
        return bean(type).fits(node, true);
    }

    private static Bean bean(Class<?> type) {
        Bean known = BEANS.get(type);
        if (known == null) {
            known = new Bean(type);
            BEANS.put(type, known); // a race builds the same description twice; either is right
        }
        return known;
    }

    /** The shape one property is read from. */
    private interface Shape {
        boolean fits(JsonNode node);
    }

    private static final Shape NEVER = node -> false;
    private static final Shape TEXT = JsonNode::isTextual;
    private static final Shape INT = JsonNode::isInt;
    private static final Shape LONG = node -> node.isInt() || node.isLong();
    private static final Shape BOOLEAN = JsonNode::isBoolean;
    /** fabric8's IntOrString (an AnyType): its deserializer keeps an integer or a string as it is. */
    private static final Shape INT_OR_STRING = node -> node.isInt() || node.isTextual();

    private static Shape shapeOf(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (raw == String.class) {
            return TEXT;
        }
        if (raw == Integer.class || raw == int.class) {
            return INT;
        }
        if (raw == Long.class || raw == long.class) {
            return LONG;
        }
        if (raw == Boolean.class || raw == boolean.class) {
            return BOOLEAN;
        }
        if (raw == IntOrString.class) {
            return INT_OR_STRING;
        }
        if (type.isCollectionLikeType() && java.util.List.class.isAssignableFrom(raw)) {
            Shape entry = shapeOf(type.getContentType());
            return node -> {
                if (!node.isArray()) {
                    return false;
                }
                for (JsonNode e : node) {
                    if (!entry.fits(e)) {
                        return false; // a null entry too: it is a problem for the reader
                    }
                }
                return true;
            };
        }
        if (type.isMapLikeType() && type.getKeyType().getRawClass() == String.class
                && type.getContentType().getRawClass() == String.class) {
            return node -> {
                if (!node.isObject()) {
                    return false;
                }
                for (JsonNode v : node) {
                    if (!v.isTextual()) {
                        return false;
                    }
                }
                return true;
            };
        }
        if (raw.getName().startsWith("io.fabric8.kubernetes.api.model.") && !raw.isInterface() && !raw.isEnum()
                && !hasOwnDeserializer(raw)) {
            return node -> node.isObject() && bean(raw).fits(node, false);
        }
        return NEVER; // any other type is bound by rules of its own: let the reader decide
    }

    private static boolean hasOwnDeserializer(Class<?> raw) {
        JsonDeserialize d = raw.getAnnotation(JsonDeserialize.class);
        return d != null && d.using() != JsonDeserializer.None.class;
    }

    /** A model type's properties by JSON name, built on first use from Jackson's own view of the type. */
    private static final class Bean {
        private final Class<?> type;
        private volatile Map<String, Shape> properties;
        private volatile boolean takesUnknown;

        Bean(Class<?> type) {
            this.type = type;
        }

        private Map<String, Shape> properties() {
            Map<String, Shape> p = properties;
            if (p == null) {
                ObjectMapper mapper = KubeObjects.mapper();
                JavaType javaType = mapper.constructType(type);
                BeanDescription description = mapper.getDeserializationConfig().introspect(javaType);
                Map<String, Shape> built = new HashMap<>();
                for (BeanPropertyDefinition property : description.findProperties()) {
                    if (!property.couldDeserialize()) {
                        continue;
                    }
                    AnnotatedMember member = property.getPrimaryMember();
                    JsonDeserialize custom = member == null ? null : member.getAnnotation(JsonDeserialize.class);
                    boolean ownRules = custom != null && (custom.using() != JsonDeserializer.None.class
                            || custom.contentUsing() != JsonDeserializer.None.class);
                    // a shape is built lazily per bean type, so recursive model types terminate
                    built.put(property.getName(), ownRules ? NEVER : shapeOf(property.getPrimaryType()));
                }
                takesUnknown = description.findAnySetterAccessor() != null;
                properties = built;
                p = built;
            }
            return p;
        }

        boolean fits(JsonNode node, boolean root) {
            Map<String, Shape> props = properties();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode value = field.getValue();
                if (value.isNull()) {
                    return false; // the reader drops it first; rare enough to leave to it
                }
                Shape shape = props.get(field.getKey());
                if (shape == null) {
                    if (!takesUnknown || !plain(value)) {
                        return false;
                    }
                    continue;
                }
                if (root && field.getKey().equals("metadata")) {
                    if (!metadataFits(value)) {
                        return false;
                    }
                    continue;
                }
                if (!shape.fits(value)) {
                    return false;
                }
            }
            return true;
        }

        /** The root's metadata, without the managedFields the reader drops. */
        private static boolean metadataFits(JsonNode metadata) {
            Bean meta = bean(io.fabric8.kubernetes.api.model.ObjectMeta.class);
            Map<String, Shape> props = meta.properties();
            for (Iterator<Map.Entry<String, JsonNode>> it = metadata.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getKey().equals("managedFields")) {
                    continue;
                }
                JsonNode value = field.getValue();
                Shape shape = props.get(field.getKey());
                if (value.isNull() || (shape == null ? !meta.takesUnknown || !plain(value) : !shape.fits(value))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** An unknown field's value, kept as a map/list/scalar: anything but a null, at any depth (the reader's problem). */
    private static boolean plain(JsonNode value) {
        if (value.isNull()) {
            return false;
        }
        if (value.isContainerNode()) {
            for (JsonNode v : value) {
                if (!plain(v)) {
                    return false;
                }
            }
        }
        return true;
    }
}
