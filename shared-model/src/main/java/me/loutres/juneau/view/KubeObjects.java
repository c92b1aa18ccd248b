package me.loutres.juneau.view;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * Converts Kubernetes objects between the shapes they arrive in (fabric8 types, generic resources, maps, JSON
 * trees) and our typed classes, turning every content problem into a one-line {@link UnreadableObjectException}.
 */
public final class KubeObjects {
    /** The kinds the admission rules and the cluster view read as typed objects, by {@code group/kind}. */
    private static final Map<String, Class<? extends HasMetadata>> TYPED = Map.ofEntries(
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ADDRESS_POOL, AddressPool.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_EXTERNAL_NETWORK, ExternalNetwork.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_SERVICE_LOAD_BALANCER, ServiceLoadBalancer.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_ARP_ADVERTISEMENT, ARPAdvertisement.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_PEER, BGPPeer.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BFD_PROFILE, BFDProfile.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_BGP_SESSION, BGPSession.class),
            Map.entry(JuneauConstants.GROUP + "/" + JuneauConstants.KIND_NODE_NETWORK, NodeNetwork.class),
            Map.entry("/Node", Node.class),
            Map.entry("/Namespace", io.fabric8.kubernetes.api.model.Namespace.class),
            Map.entry("/Service", Service.class),
            Map.entry("/Secret", io.fabric8.kubernetes.api.model.Secret.class),
            Map.entry("networking.k8s.io/ServiceCIDR", io.fabric8.kubernetes.api.model.networking.v1.ServiceCIDR.class));

    private KubeObjects() {
    }

    /** fabric8's mapper: knows the model types and fails on unknown fields of our own types. */
    public static ObjectMapper mapper() {
        return Serialization.jsonMapper();
    }

    /**
     * The mapper {@link KubeReader} binds with: fabric8's, without Jackson's coercions, so a value binds only from its
     * own JSON type, as the API server decodes it (docs/design.md, "Strict types"): {@code 1.5} is no integer (Jackson
     * would truncate it), {@code 1} and {@code ""} are no booleans, a number or a boolean is no string, and {@code ""}
     * is no object, list or number. Built once, on first use.
     */
    static ObjectMapper strictMapper() {
        return StrictMapper.INSTANCE;
    }

    private static final class StrictMapper {
        static final ObjectMapper INSTANCE = build();

        @SuppressWarnings("deprecation") // the per-mapper switch; the builder API would drop fabric8's modules
        private static ObjectMapper build() {
            ObjectMapper m = mapper().copy();
            m.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
            m.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
            // Jackson's coercion settings do not reach every scalar (a "1" still became an Integer): the scalars the
            // model uses get readers that take their own JSON type only
            SimpleModule scalars = new SimpleModule("juneau-strict-scalars");
            scalars.addDeserializer(String.class, new Scalar<>(String.class, JsonToken.VALUE_STRING, JsonParser::getText));
            scalars.addDeserializer(Boolean.class, new Scalar<>(Boolean.class, null, p -> p.getBooleanValue()));
            scalars.addDeserializer(Boolean.TYPE, new Scalar<>(Boolean.TYPE, null, p -> p.getBooleanValue()));
            // an integer also from a whole JSON number written with a fraction or exponent (1.0, 1e3), as
            // kube-apiserver reads type: integer (docs/design.md, "Strict types"); 1.5 stays no integer
            scalars.addDeserializer(Integer.class, new Scalar<>(Integer.class, JsonToken.VALUE_NUMBER_INT, JsonParser::getIntValue));
            scalars.addDeserializer(Integer.TYPE, new Scalar<>(Integer.TYPE, JsonToken.VALUE_NUMBER_INT, JsonParser::getIntValue));
            scalars.addDeserializer(Long.class, new Scalar<>(Long.class, JsonToken.VALUE_NUMBER_INT, JsonParser::getLongValue));
            scalars.addDeserializer(Long.TYPE, new Scalar<>(Long.TYPE, JsonToken.VALUE_NUMBER_INT, JsonParser::getLongValue));
            m.registerModule(scalars);
            return m;
        }
    }

    /**
     * A scalar read from its own JSON token only ({@code null} token: {@code true}/{@code false}); anything else is
     * Jackson's "wrong type" problem, which {@link KubeReader} turns into a line naming the field and the value.
     */
    private static final class Scalar<T> extends StdScalarDeserializer<T> {
        private interface Read<T> {
            T from(JsonParser p) throws IOException;
        }

        private final JsonToken token;
        private final Read<T> read;

        @SuppressWarnings("unchecked")
        Scalar(Class<?> type, JsonToken token, Read<T> read) {
            super((Class<T>) type);
            this.token = token;
            this.read = read;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            boolean fits = token == null ? t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE : t == token;
            if (!fits && token == JsonToken.VALUE_NUMBER_INT && t == JsonToken.VALUE_NUMBER_FLOAT
                    && isWholeJsonInteger(p.getDoubleValue())) {
                // getIntValue/getLongValue of a whole float: its value, and Jackson's range check for int
                return read.from(p);
            }
            if (!fits) {
                @SuppressWarnings("unchecked")
                T none = (T) ctxt.handleUnexpectedToken(handledType(), p);
                return none;
            }
            return read.from(p);
        }
    }

    /** The largest integer a JSON number (an IEEE double) holds exactly: 2^53, the bound kube-apiserver reads by. */
    private static final double MAX_JSON_INTEGER = 9007199254740992d;

    /**
     * Whether a JSON number written with a fraction or an exponent is an integer as kube-apiserver reads
     * {@code type: integer}: finite, whole and within ±2^53 ({@code 1.0} and {@code 1e3} are, {@code 1.5} is not).
     */
    public static boolean isWholeJsonInteger(double d) {
        return !Double.isNaN(d) && !Double.isInfinite(d) && Math.abs(d) <= MAX_JSON_INTEGER && d == Math.rint(d);
    }

    /** A JSON tree of any object shape, or null for null. */
    public static JsonNode tree(Object raw) {
        if (raw == null) {
            return null;
        }
        if (raw instanceof JsonNode node) {
            return node.isNull() || node.isMissingNode() ? null : node;
        }
        try {
            if (raw instanceof String text) {
                return mapper().readTree(text);
            }
            JsonNode node = mapper().valueToTree(raw);
            return node == null || node.isNull() ? null : node;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new UnreadableObjectException("the object is not valid JSON");
        }
    }

    /** {@link KubeReader#read}: null is absent; the message names the kind, the field and the value that do not fit. */
    public static <T> T read(JsonNode node, Class<T> type, String kind) {
        return KubeReader.read(node, type, kind);
    }

    /** {@code group/kind} of an object tree ({@code /Service} for the core group), or null without a kind. */
    public static String groupKind(JsonNode node) {
        if (node == null || !node.hasNonNull("kind")) {
            return null;
        }
        return group(node.path("apiVersion").asText("")) + "/" + node.get("kind").asText();
    }

    public static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** The typed class for a {@code group/kind}, or null when we read that kind generically. */
    public static Class<? extends HasMetadata> typedClass(String groupKind) {
        return TYPED.get(groupKind);
    }

    /** A tree as our typed class when we know the kind, else a {@link GenericKubernetesResource}. */
    public static HasMetadata toObject(JsonNode node) {
        String groupKind = groupKind(node);
        Class<? extends HasMetadata> type = typedClass(groupKind);
        String kind = node.path("kind").asText("object");
        if (type != null) {
            return read(node, type, kind);
        }
        return read(node, GenericKubernetesResource.class, kind);
    }

    /** Any HasMetadata as our typed class when we know its kind (generic resources are converted). */
    public static HasMetadata typed(HasMetadata object) {
        if (!(object instanceof GenericKubernetesResource)) {
            return object;
        }
        JsonNode node = tree(object);
        Class<? extends HasMetadata> type = typedClass(groupKind(node));
        return type == null ? object : read(node, type, object.getKind());
    }

    static String simpleType(Class<?> type) {
        if (type == null) {
            return "another type";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class
                || type == Short.class || type == short.class || type == java.math.BigInteger.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "a map";
        }
        return "an object";
    }

    /** Quotes a value for a message, keeping the message on one line. */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c); // not String.valueOf(c): a denial may quote a value megabytes long
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static String firstLine(String message) {
        if (message == null) {
            return "unknown reason";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }

    /** An ObjectNode's {@code metadata.deletionTimestamp} is set. */
    public static boolean beingDeleted(JsonNode node) {
        return node != null && node.path("metadata").hasNonNull("deletionTimestamp");
    }

    /** A deep copy, for callers that change a tree they did not create. */
    public static ObjectNode copy(JsonNode node) {
        return (ObjectNode) node.deepCopy();
    }
}
