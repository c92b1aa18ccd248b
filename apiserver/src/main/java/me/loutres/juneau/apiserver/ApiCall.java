package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * One parsed request of the local API server: its method, decoded path, query, the caller and the Jetty request it
 * came from; reads the body as kube-apiserver does (at most 3 MiB; JSON, YAML, or protobuf for the built-in kinds
 * client-java-proto has messages for; a clear 4xx otherwise).
 */
record ApiCall(String method, String path, Fields query, UserInfo user, Request request) {
    static final String JSON = "application/json";
    private static final int MAX_BODY = 3 * 1024 * 1024;
    /** A refused body up to this declared size is read to its end (and dropped) so its client reads the 413. */
    private static final long DISCARD_LIMIT = 16L * 1024 * 1024;

    String param(String name) {
        Fields.Field f = query.get(name);
        return f == null ? null : f.getValue();
    }

    String header(HttpHeader header) {
        return request.getHeaders().get(header);
    }

    /** Whether the client asked for the given {@code as=...} rendering (Table, PartialObjectMetadata...). */
    boolean accepts(String rendering) {
        return String.valueOf(header(HttpHeader.ACCEPT)).contains(rendering);
    }

    /**
     * kube-apiserver answers 406 to an Accept it cannot serve; protobuf is served for one object of a built-in kind
     * that client-java-proto has a message for ({@link KubeProtobuf}), not for lists, watches or tables.
     */
    void checkAccept(ResourceType type, boolean oneObject) throws ApiException {
        String accept = header(HttpHeader.ACCEPT);
        if (accept == null || accept.isBlank()) {
            return;
        }
        boolean protobuf = oneObject && KubeProtobuf.message(type).isPresent();
        for (String a : accept.split(",")) {
            String media = a.split(";")[0].trim();
            if (media.equals(JSON) || media.equals("*/*") || media.equals("application/*")
                    || media.equals("application/yaml") || media.equals("application/json-seq")
                    || (protobuf && KubeProtobuf.isProtobuf(media))) {
                return;
            }
        }
        throw ApiException.notAcceptable(protobuf ? "application/json, application/yaml, " + KubeProtobuf.MEDIA_TYPE
                : "application/json, application/yaml");
    }

    /** Whether the client's first choice is protobuf (kubectl's typed writes: protobuf, then JSON). */
    boolean prefersProtobuf() {
        String accept = header(HttpHeader.ACCEPT);
        return accept != null && KubeProtobuf.isProtobuf(accept.split(",")[0]);
    }

    byte[] rawBody() throws ApiException, IOException {
        InputStream in = Content.Source.asInputStream(request);
        byte[] bytes = in.readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            // a client sending its whole body before it reads would see a reset connection if we closed with the
            // rest unread: a declared length within a bound is read to its end and dropped first
            long declared = request.getLength();
            if (declared >= 0 && declared <= DISCARD_LIMIT) {
                in.transferTo(java.io.OutputStream.nullOutputStream()); // the framing ends it at the declared length
            }
            throw ApiException.tooLarge("the request body is larger than 3 MiB");
        }
        return bytes;
    }

    /**
     * Reads what is left of a request's body, at most {@link #DISCARD_LIMIT} bytes, and drops it: a request refused
     * before its body was read (401, 403, 404...) would otherwise close the connection under a client still sending
     * the body, and kubectl would print a broken pipe instead of the server's answer. Nothing is left to read after
     * {@link #rawBody}, and a request without a body ends at once.
     */
    static void discardUnread(Request request) {
        long declared = request.getLength();
        if (declared == 0 || declared > DISCARD_LIMIT) {
            return;
        }
        try {
            InputStream in = Content.Source.asInputStream(request);
            byte[] buffer = new byte[8192];
            long left = DISCARD_LIMIT;
            int n;
            while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
                left -= n;
            }
        } catch (IOException | RuntimeException e) {
            // the client went away or the body was already taken: the answer is sent as it is
        }
    }

    /** The body as JSON (sent as JSON or YAML); null when optional and empty. */
    JsonNode body(boolean optional) throws ApiException, IOException {
        byte[] bytes = rawBody();
        if (bytes.length == 0) {
            if (optional) {
                return null;
            }
            throw ApiException.badRequest("the request has no body");
        }
        String type = header(HttpHeader.CONTENT_TYPE);
        String media = type == null ? JSON : type.split(";")[0].trim().toLowerCase(Locale.ROOT);
        try {
            if (media.equals(JSON) || media.equals("*/*")) {
                return Json.MAPPER.readTree(bytes);
            }
            if (media.equals("application/yaml")) {
                return Json.YAML.readTree(bytes);
            }
            if (media.equals(KubeProtobuf.MEDIA_TYPE)) {
                return KubeProtobuf.decode(bytes);
            }
        } catch (IOException e) {
            throw ApiException.badRequest("the body of the request cannot be decoded: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        throw ApiException.unsupportedMediaType("application/json, application/yaml, " + KubeProtobuf.MEDIA_TYPE);
    }
}
