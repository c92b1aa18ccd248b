package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * How the local API server writes an answer: JSON (protobuf for one object of a built-in kind when the client asks
 * for it first, see {@link KubeProtobuf}), the admission warnings as {@code Warning} headers.
 */
final class Responses {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Responses() {
    }

    static boolean sendOk(Response response, Callback callback, JsonNode body, List<String> warnings) {
        send(response, callback, 200, body, warnings);
        return true;
    }

    static void send(Response response, Callback callback, int code, JsonNode body, List<String> warnings) {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            bytes = "{}".getBytes(StandardCharsets.UTF_8);
        }
        sendJson(response, callback, code, bytes, warnings);
    }

    private static void sendJson(Response response, Callback callback, int code, byte[] bytes, List<String> warnings) {
        sendBytes(response, callback, code, ApiCall.JSON, bytes, warnings);
    }

    private static void sendBytes(Response response, Callback callback, int code, String contentType, byte[] bytes,
            List<String> warnings) {
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        for (String w : warnings) {
            response.getHeaders().add("Warning", "299 - \"" + w.replace("\"", "'").replace("\n", " ") + "\"");
        }
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    static void sendText(Response response, Callback callback, String text) {
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
    }

    /**
     * A written object: its JSON as the store already serialized it for the watch event of the write, when it has
     * (see {@link Store#committedJson}).
     */
    static void sendWritten(ApiCall call, ResourceType type, ObjectNode o, Store store, int code, Response response,
            Callback callback, List<String> warnings) {
        if (sentAsProtobuf(call, type, o, code, response, callback, warnings)) {
            return;
        }
        byte[] json = store.committedJson(o);
        if (json != null) {
            sendJson(response, callback, code, json, warnings);
        } else {
            sendObject(call, type, o, code, response, callback, warnings);
        }
    }

    /** One object, rendered as the GET asked: the object, a Table of one row, or its metadata only. */
    static void sendObject(ApiCall call, ResourceType type, ObjectNode o, int code, Response response,
            Callback callback, List<String> warnings) {
        boolean get = call.method().equals("GET");
        if (get && call.accepts("as=Table")) {
            send(response, callback, code, TableConverter.toTable(type, List.of(o), Json.rv(o), Instant.now(), true),
                    warnings);
        } else if (get && call.accepts("as=PartialObjectMetadata")) {
            send(response, callback, code, partial(o), warnings);
        } else if (!sentAsProtobuf(call, type, o, code, response, callback, warnings)) {
            send(response, callback, code, o, warnings);
        }
    }

    /** Answers in protobuf when the client prefers it and the kind has a message (kubectl's typed writes). */
    private static boolean sentAsProtobuf(ApiCall call, ResourceType type, ObjectNode o, int code, Response response,
            Callback callback, List<String> warnings) {
        if (!call.prefersProtobuf()) {
            return false;
        }
        java.util.Optional<byte[]> bytes = KubeProtobuf.encode(type, o);
        bytes.ifPresent(b -> sendBytes(response, callback, code, KubeProtobuf.MEDIA_TYPE, b, warnings));
        return bytes.isPresent();
    }

    static ObjectNode partial(ObjectNode o) {
        ObjectNode p = F.objectNode();
        p.put("kind", "PartialObjectMetadata");
        p.put("apiVersion", "meta.k8s.io/v1");
        p.set("metadata", o.path("metadata"));
        return p;
    }
}
