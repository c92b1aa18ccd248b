package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the protobuf bodies client-go sends for access reviews ({@code kubectl auth can-i} posts a
 * SelfSubjectAccessReview as {@code application/vnd.kubernetes.protobuf}): kube's envelope ("k8s\0" then a
 * runtime.Unknown with the message in field 2) around the generated messages of k8s.io/api/authorization/v1.
 * Only these review kinds are read this way; other protobuf bodies get 415.
 */
final class ReviewProtobuf {
    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private ReviewProtobuf() {
    }

    /** The review as JSON; throws ApiException when the bytes are not such a message. */
    static ObjectNode decode(byte[] body) throws ApiException {
        if (body.length < 4 || !Arrays.equals(Arrays.copyOf(body, 4), MAGIC)) {
            throw ApiException.badRequest("the protobuf body lacks the k8s envelope");
        }
        Reader unknown = new Reader(body, 4, body.length);
        byte[] raw = null;
        String kind = "";
        while (unknown.more()) {
            int tag = unknown.varint();
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                Reader typeMeta = unknown.sub();
                while (typeMeta.more()) {
                    int t = typeMeta.varint();
                    if (t >>> 3 == 2 && (t & 7) == 2) {
                        kind = typeMeta.string();
                    } else {
                        typeMeta.skip(t);
                    }
                }
            } else if (tag >>> 3 == 2 && (tag & 7) == 2) {
                raw = unknown.bytes();
            } else {
                unknown.skip(tag);
            }
        }
        if (raw == null) {
            throw ApiException.badRequest("the protobuf body carries no object");
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("kind", kind);
        ObjectNode spec = out.putObject("spec");
        Reader msg = new Reader(raw, 0, raw.length);
        while (msg.more()) {
            int tag = msg.varint();
            if (tag >>> 3 == 2 && (tag & 7) == 2) {
                Reader s = msg.sub();
                while (s.more()) {
                    int t = s.varint();
                    if (kind.equals("SelfSubjectRulesReview") && t >>> 3 == 1 && (t & 7) == 2) {
                        spec.put("namespace", s.string());
                    } else if (t >>> 3 == 1 && (t & 7) == 2) {
                        spec.set("resourceAttributes", fields(s.sub(), "namespace", "verb", "group", "version",
                                "resource", "subresource", "name"));
                    } else if (t >>> 3 == 2 && (t & 7) == 2) {
                        spec.set("nonResourceAttributes", fields(s.sub(), "path", "verb"));
                    } else {
                        s.skip(t);
                    }
                }
            } else {
                msg.skip(tag);
            }
        }
        return out;
    }

    private static ObjectNode fields(Reader r, String... names) throws ApiException {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        while (r.more()) {
            int t = r.varint();
            int n = t >>> 3;
            if ((t & 7) == 2 && n >= 1 && n <= names.length) {
                o.put(names[n - 1], r.string());
            } else {
                r.skip(t);
            }
        }
        return o;
    }

    /** A cursor over protobuf wire format. */
    private static final class Reader {
        private final byte[] b;
        private int pos;
        private final int end;

        Reader(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        int varint() throws ApiException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw ApiException.badRequest("truncated protobuf body");
                }
                int x = b[pos++] & 0xff;
                v |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    return (int) v;
                }
            }
            throw ApiException.badRequest("malformed protobuf varint");
        }

        Reader sub() throws ApiException {
            int len = varint();
            if (len < 0 || pos + len > end) {
                throw ApiException.badRequest("truncated protobuf body");
            }
            Reader r = new Reader(b, pos, pos + len);
            pos += len;
            return r;
        }

        byte[] bytes() throws ApiException {
            Reader r = sub();
            return Arrays.copyOfRange(b, r.pos, r.end);
        }

        String string() throws ApiException {
            return new String(bytes(), StandardCharsets.UTF_8);
        }

        void skip(int tag) throws ApiException {
            switch (tag & 7) {
                case 0 -> varint();
                case 1 -> pos += 8;
                case 2 -> sub();
                case 5 -> pos += 4;
                default -> throw ApiException.badRequest("unsupported protobuf wire type " + (tag & 7));
            }
        }
    }
}
