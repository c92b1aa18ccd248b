package me.loutres.juneau.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return type == Boolean.class || type == boolean.class ? "true or false" : "a number";
        }
        if (type == Boolean.class) {
            return "true or false";
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
