package me.loutres.juneau.webhook.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.webhook.Reviews;

/**
 * One damaged request: a JSON tree (some of whose strings are markers for raw JSON text a tree cannot hold: numbers
 * out of range, nesting deeper than a writer allows, duplicate keys, lone surrogates), then optional damage to the
 * bytes. Rendering is deterministic, so a case is rebuilt from its seed alone, and the minimiser can shrink the tree
 * and render it again with the same byte damage.
 *
 * @param seed        what {@link DamagedReviews#generate(long)} built this case from
 * @param seedName    the well-formed review it started as
 * @param damage      what was done to it, for the failure report
 * @param tree        the damaged review, null when the whole body was replaced
 * @param raws        marker text -> raw JSON text substituted after writing the tree
 * @param bytes       damage to the written bytes
 */
public record FuzzCase(long seed, String seedName, String method, String path, String contentType, List<String> damage,
                       JsonNode tree, Map<String, String> raws, ByteDamage bytes) {

    /** The request body as sent. */
    public byte[] body() {
        return bytes.apply(render(tree, raws));
    }

    /**
     * The uid the request carries when it is well-formed enough to have one; null otherwise, also when the damage gave
     * {@code request} a second {@code uid} key (which of two equal keys counts is not defined by JSON; the reader keeps
     * the last one, so the first one's value need not come back).
     */
    public String uid() {
        if (tree == null || bytes.changesContent()) {
            return null;
        }
        JsonNode request = tree.path("request");
        for (java.util.Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
            if ("\"uid\"".equals(raws.get(names.next()))) {
                return null;
            }
        }
        JsonNode uid = request.path("uid");
        return uid.isTextual() && !raws.containsKey(uid.textValue()) ? uid.textValue() : null;
    }

    public FuzzCase withTree(JsonNode newTree) {
        return new FuzzCase(seed, seedName, method, path, contentType, damage, newTree, raws, bytes);
    }

    public static byte[] render(JsonNode tree, Map<String, String> raws) {
        if (tree == null) {
            return new byte[0];
        }
        String text;
        try {
            text = Reviews.JSON.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a fuzz tree did not serialise", e);
        }
        for (Map.Entry<String, String> raw : raws.entrySet()) {
            // Jackson writes the marker's control characters as \\u0001; the marker is quoted as a key or a value
            String written = "\"" + raw.getKey().replace("\u0001", "\\u0001") + "\"";
            if (text.contains(written)) {
                text = text.replace(written, raw.getValue());
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A printable, bounded rendering of the body for a failure report. */
    public String printable(int max) {
        byte[] body = body();
        String text = new String(body, StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            out.append(c < 0x20 || (c >= 0x7f && c < 0xa0) ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        if (out.length() >= max) {
            out.append("... (").append(body.length).append(" bytes in all)");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "seed " + seed + " (" + seedName + ", " + method + " " + path + ", " + String.join("; ", damage) + ")";
    }
}
