package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.Runtime;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kubernetes' protobuf encoding of built-in kinds, as kube-apiserver reads and writes it: the envelope ("k8s\0" then
 * a {@code runtime.Unknown} carrying apiVersion/kind and the message's bytes) around the generated messages of
 * client-java-proto (io.kubernetes.client.proto; no decoder of Kubernetes' types is written here). kubectl sends
 * its typed writes this way ({@code kubectl create secret generic}, {@code create configmap}, {@code create
 * namespace}, {@code auth can-i}...) and asks for protobuf first in the answer.
 *
 * <p>The messages map to the JSON the server keeps by their descriptors: a field's JSON name is its proto name (they
 * are generated from the json tags), bytes are base64, maps are objects, and the apimachinery wrappers are their JSON
 * forms (Time and MicroTime as RFC 3339, IntOrString as a number or a string, Quantity as its string, RawExtension
 * and FieldsV1 as the JSON they carry). Go writes every non-pointer field of a struct, even empty: an empty string,
 * a zero number and a zero Time read as absent (they are Go's zero values, which its JSON leaves out), booleans stay
 * (a pointer's {@code false} differs from nil). A field the library does not know (a kind newer than it) is refused
 * rather than dropped.
 */
final class KubeProtobuf {
    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1.";
    /** The generated outer class of each group's v1 messages in client-java-proto. */
    private static final Map<String, String> OUTER = Map.of("", "V1", "rbac.authorization.k8s.io", "V1Rbac",
            "admissionregistration.k8s.io", "V1Admissionregistration", "authorization.k8s.io", "V1Authorization",
            "authentication.k8s.io", "V1Authentication", "networking.k8s.io", "V1Networking",
            "coordination.k8s.io", "V1Coordination", "discovery.k8s.io", "V1Discovery", "meta.k8s.io", "Meta");
    private static final Map<String, Optional<Message>> MESSAGES = new ConcurrentHashMap<>();

    private KubeProtobuf() {
    }

    /** Whether a Content-Type or Accept entry names the protobuf media type. */
    static boolean isProtobuf(String media) {
        return media != null && media.split(";")[0].trim().equalsIgnoreCase(MEDIA_TYPE);
    }

    /** The generated message of this kind (v1 only), when client-java-proto has one. */
    static Optional<Message> message(String apiVersion, String kind) {
        return MESSAGES.computeIfAbsent(apiVersion + "/" + kind, k -> {
            int slash = apiVersion.indexOf('/');
            String group = slash < 0 ? "" : apiVersion.substring(0, slash);
            String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
            // client-go sends DeleteOptions (a meta.k8s.io kind) under the resource's own group version
            String outer = kind.equals("DeleteOptions") ? "Meta" : OUTER.get(group);
            if (outer == null || !version.equals("v1")) {
                return Optional.empty();
            }
            try {
                Class<?> c = Class.forName("io.kubernetes.client.proto." + outer + "$" + kind);
                return Optional.of((Message) c.getMethod("getDefaultInstance").invoke(null));
            } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
                return Optional.empty();
            }
        });
    }

    static Optional<Message> message(ResourceType type) {
        return message(type.groupVersion(), type.kind());
    }

    /** The object of a protobuf body as the JSON the server keeps; a 400 or 415 Status when it cannot be read. */
    static ObjectNode decode(byte[] body) throws ApiException {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw ApiException.badRequest("the protobuf body lacks the k8s envelope");
        }
        Runtime.Unknown unknown;
        try {
            unknown = Runtime.Unknown.parseFrom(ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.badRequest("the protobuf body cannot be decoded: " + e.getMessage());
        }
        String apiVersion = unknown.getTypeMeta().getApiVersion();
        String kind = unknown.getTypeMeta().getKind();
        Message prototype = message(apiVersion, kind).orElseThrow(() -> ApiException.unsupportedMediaType(
                "application/json, application/yaml (no protobuf message for " + apiVersion + " " + kind + ")"));
        Message m;
        try {
            m = prototype.getParserForType().parseFrom(unknown.getRaw());
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.badRequest("the protobuf body of " + kind + " cannot be decoded: " + e.getMessage());
        }
        Optional<String> unread = unknownField(m, "");
        if (unread.isPresent()) {
            throw ApiException.unsupportedMediaType("application/json, application/yaml (the protobuf " + kind
                    + " carries field " + unread.get() + ", unknown to this server's protobuf messages; send JSON)");
        }
        ObjectNode out = F.objectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        out.setAll(toJson(m));
        return out;
    }

    /** The first field number the library did not know, as a path, in this message or under it. */
    private static Optional<String> unknownField(Message m, String path) {
        if (!m.getUnknownFields().asMap().isEmpty()) {
            return Optional.of(path + "#" + m.getUnknownFields().asMap().keySet().iterator().next());
        }
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            if (e.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            List<?> values = e.getKey().isRepeated() ? (List<?>) e.getValue() : List.of(e.getValue());
            for (Object v : values) {
                Optional<String> found = unknownField((Message) v, path + "." + e.getKey().getName());
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** The object in the envelope, as kube-apiserver answers an Accept of protobuf; empty for a kind it lacks. */
    static Optional<byte[]> encode(ResourceType type, JsonNode object) {
        Optional<Message> prototype = message(type);
        if (prototype.isEmpty()) {
            return Optional.empty();
        }
        Message.Builder b = prototype.get().newBuilderForType();
        fromJson(object, b);
        Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(type.groupVersion()).setKind(type.kind()))
                .setRaw(b.build().toByteString()).setContentEncoding("").setContentType("").build();
        byte[] inner = unknown.toByteArray();
        byte[] out = Arrays.copyOf(MAGIC, MAGIC.length + inner.length);
        System.arraycopy(inner, 0, out, MAGIC.length, inner.length);
        return Optional.of(out);
    }

    static ObjectNode toJson(Message m) {
        ObjectNode o = F.objectNode();
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (f.isMapField()) {
                ObjectNode map = o.putObject(f.getJsonName());
                for (Object entry : (List<?>) e.getValue()) {
                    Message me = (Message) entry;
                    FieldDescriptor kf = me.getDescriptorForType().findFieldByNumber(1);
                    FieldDescriptor vf = me.getDescriptorForType().findFieldByNumber(2);
                    map.set(String.valueOf(me.getField(kf)), value(vf, me.getField(vf)));
                }
            } else if (f.isRepeated()) {
                ArrayNode a = o.putArray(f.getJsonName());
                for (Object v : (List<?>) e.getValue()) {
                    a.add(value(f, v));
                }
            } else {
                JsonNode v = value(f, e.getValue());
                if (v != null) {
                    o.set(f.getJsonName(), v);
                }
            }
        }
        return o;
    }

    /** One value as JSON; null for Go's zero values of a string, a number or a Time (absent in Go's JSON). */
    private static JsonNode value(FieldDescriptor f, Object v) {
        switch (f.getJavaType()) {
            case STRING:
                return ((String) v).isEmpty() && !f.isRepeated() && !isMapValue(f) ? null : F.textNode((String) v);
            case BYTE_STRING:
                return F.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
            case BOOLEAN:
                return F.booleanNode((Boolean) v);
            case INT:
                return (Integer) v == 0 && !f.isRepeated() ? null : F.numberNode((Integer) v);
            case LONG:
                return (Long) v == 0 && !f.isRepeated() ? null : F.numberNode((Long) v);
            case DOUBLE:
                return F.numberNode((Double) v);
            case FLOAT:
                return F.numberNode((Float) v);
            case MESSAGE:
                return wrapped((Message) v);
            default:
                return F.textNode(String.valueOf(v));
        }
    }

    private static boolean isMapValue(FieldDescriptor f) {
        return f.getContainingType().getOptions().getMapEntry();
    }

    /** The JSON form of the apimachinery wrappers; any other message as an object. */
    private static JsonNode wrapped(Message m) {
        Descriptor d = m.getDescriptorForType();
        switch (d.getFullName()) {
            case META + "Time", META + "MicroTime" -> {
                long seconds = (Long) m.getField(d.findFieldByName("seconds"));
                int nanos = (Integer) m.getField(d.findFieldByName("nanos"));
                if (seconds == 0 && nanos == 0) {
                    return null;
                }
                Instant at = Instant.ofEpochSecond(seconds, nanos);
                return F.textNode(d.getName().equals("Time") ? at.truncatedTo(ChronoUnit.SECONDS).toString()
                        : java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                                .withZone(java.time.ZoneOffset.UTC).format(at));
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                long type = (Long) m.getField(d.findFieldByName("type"));
                return type == 0 ? F.numberNode((Integer) m.getField(d.findFieldByName("intVal")))
                        : F.textNode((String) m.getField(d.findFieldByName("strVal")));
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                return F.textNode((String) m.getField(d.findFieldByName("string")));
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", META + "FieldsV1" -> {
                ByteString raw = (ByteString) m.getField(d.findFieldByNumber(1));
                try {
                    return raw.isEmpty() ? null : Json.MAPPER.readTree(raw.toByteArray());
                } catch (IOException e) {
                    return F.textNode(raw.toStringUtf8());
                }
            }
            default -> {
                return toJson(m);
            }
        }
    }

    /** Fills the builder from JSON; a JSON field the message lacks (apiVersion, kind, newer fields) is left out. */
    static void fromJson(JsonNode json, Message.Builder b) {
        Descriptor d = b.getDescriptorForType();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            FieldDescriptor f = d.findFieldByName(e.getKey());
            if (f == null || e.getValue().isNull()) {
                continue;
            }
            if (f.isMapField()) {
                for (Iterator<Map.Entry<String, JsonNode>> es = e.getValue().fields(); es.hasNext();) {
                    Map.Entry<String, JsonNode> kv = es.next();
                    Message.Builder entry = b.newBuilderForField(f);
                    FieldDescriptor kf = entry.getDescriptorForType().findFieldByNumber(1);
                    FieldDescriptor vf = entry.getDescriptorForType().findFieldByNumber(2);
                    entry.setField(kf, kv.getKey());
                    Object v = scalar(vf, kv.getValue(), entry);
                    if (v != null) {
                        entry.setField(vf, v);
                    }
                    b.addRepeatedField(f, entry.build());
                }
            } else if (f.isRepeated()) {
                for (JsonNode item : e.getValue()) {
                    Object v = scalar(f, item, b);
                    if (v != null) {
                        b.addRepeatedField(f, v);
                    }
                }
            } else {
                Object v = scalar(f, e.getValue(), b);
                if (v != null) {
                    b.setField(f, v);
                }
            }
        }
    }

    private static Object scalar(FieldDescriptor f, JsonNode v, Message.Builder parent) {
        return switch (f.getJavaType()) {
            case STRING -> v.asText();
            case BYTE_STRING -> {
                try {
                    yield ByteString.copyFrom(Base64.getDecoder().decode(v.asText()));
                } catch (IllegalArgumentException e) {
                    yield null;
                }
            }
            case BOOLEAN -> v.asBoolean();
            case INT -> v.asInt();
            case LONG -> v.asLong();
            case DOUBLE -> v.asDouble();
            case FLOAT -> (float) v.asDouble();
            case MESSAGE -> wrappedFromJson(f.getMessageType(), v, parent.newBuilderForField(f));
            default -> null;
        };
    }

    private static Message wrappedFromJson(Descriptor d, JsonNode v, Message.Builder b) {
        switch (d.getFullName()) {
            case META + "Time", META + "MicroTime" -> {
                try {
                    Instant at = Instant.parse(v.asText());
                    b.setField(d.findFieldByName("seconds"), at.getEpochSecond());
                    b.setField(d.findFieldByName("nanos"), at.getNano());
                } catch (DateTimeParseException e) {
                    return null;
                }
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                if (v.isNumber()) {
                    b.setField(d.findFieldByName("type"), 0L);
                    b.setField(d.findFieldByName("intVal"), v.asInt());
                } else {
                    b.setField(d.findFieldByName("type"), 1L);
                    b.setField(d.findFieldByName("strVal"), v.asText());
                }
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> b.setField(d.findFieldByName("string"), v.asText());
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", META + "FieldsV1" -> {
                try {
                    b.setField(d.findFieldByNumber(1), ByteString.copyFrom(Json.MAPPER.writeValueAsBytes(v)));
                } catch (IOException e) {
                    return null;
                }
            }
            default -> fromJson(v, b);
        }
        return b.build();
    }
}
