package me.loutres.juneau.webhook.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Damages one position of a JSON tree the way real clients, broken tools and hostile users do: nulls anywhere, values
 * of the wrong type, huge and deeply nested values, numbers out of every range, odd Unicode, duplicate keys, strings
 * that look like addresses but are not, parts of other objects. Shared by every fuzz target (reviews, manifests,
 * objects read from the API server).
 */
public final class TreeDamage {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** Raw JSON numbers no Java type holds, or that every field range refuses. */
    private static final List<String> NUMBERS = List.of("1e400", "-1e400", "1e-400", "18446744073709551616",
            "9223372036854775808", "-9223372036854775809", "2147483648", "-2147483649", "65536", "-1", "0", "-0",
            "1.5", "0.1e1", "4294967296", "1" + "0".repeat(400), "-" + "9".repeat(1200), "0." + "0".repeat(2000) + "1",
            "3.4028235e38", "1E+2");

    /** Strings that are almost addresses, ranges or names. */
    private static final List<String> LOOKALIKES = List.of("", " ", "\t", "256.1.1.1", "1.2.3", "01.2.3.4",
            "203.0.113.0/33", "203.0.113.0/-1", "203.0.113.20-203.0.113.1", "::1", "2001:db8::1", "0.0.0.0/0",
            " 203.0.113.5 ", "203.0.113.5\n", "203.0.113.7", "198.51.100.12", "192.168.1.10", "1.1.1.1-",
            "-", "/", "203.0.113.0/28,198.51.100.0/24", "0x7f.0.0.1", "4294967296.0.0.0", "203.0.113.0/28 ",
            "pool-bgp", "public", "lan", "node-a", "bgp", "arp", "BGP", "Local", "Cluster", "local", "TCP", "SCTP",
            "IPv6", "IPv4", "LoadBalancer", "juneau.loutres.me/load-balancer", "kube-system/x", "a".repeat(254),
            "UPDATE", "DELETE", "CONNECT", "status", "system:serviceaccount:juneau-system:juneau-controller",
            "2026-13-45T99:99:99Z", "${jndi:ldap://127.0.0.1/x}", "%s%n%x", "../../etc/passwd", "null", "true", "[]");

    /** Unicode a parser or a message builder may trip over. */
    private static final List<String> UNICODE = List.of("\u0000", "a\u0000b", "\u202eevil", "\u200b", "e\u0301",
            "\ud83d\ude80", "\uff11\uff19\uff12.\uff11\uff16\uff18.\uff11.\uff11", "\u0130", "\ufeffpublic", "\u00a0public",
            "\u0085", "\u2028\u2029", "pub\u006c\u0131c", "\uffff", "\u0007\u001b[31mred", "\u00ff\u00fe");

    /** JSON text for strings a Java writer will not produce: lone and reversed surrogates. */
    private static final List<String> RAW_STRINGS = List.of("\"\\ud800\"", "\"\\udc00\\ud800\"", "\"a\\ud83d\"",
            "\"\\u0000\"", "\"\\\"\"");

    private static final String[] KINDS = {"null", "remove", "wrong type", "lookalike", "unicode", "huge string",
            "number", "deep", "wide", "duplicate key", "transplant", "null element", "raw string"};
    private static final int[] WEIGHTS = {18, 8, 14, 12, 6, 3, 8, 3, 3, 5, 8, 8, 4};

    private TreeDamage() {
    }

    /** A position in a tree: a container and a field name or an index. */
    private record Slot(JsonNode container, String field, int index, String path) {
        JsonNode get() {
            return field != null ? container.get(field) : container.get(index);
        }

        void set(JsonNode value) {
            if (field != null) {
                ((ObjectNode) container).set(field, value);
            } else {
                ((ArrayNode) container).set(index, value);
            }
        }

        void remove() {
            if (field != null) {
                ((ObjectNode) container).remove(field);
            } else {
                ((ArrayNode) container).remove(index);
            }
        }
    }

    /**
     * Damages one position under {@code focus} (a node inside {@code root}, or root itself) and logs what it did.
     *
     * @param raws   marker -> raw JSON text, for values a tree cannot hold
     * @param donors other trees whose parts may be transplanted
     */
    public static void damage(SplittableRandom r, JsonNode focus, String focusPath, Map<String, String> raws,
                              List<String> log, List<? extends JsonNode> donors) {
        List<Slot> slots = new ArrayList<>();
        collect(focus, focusPath, slots, 0);
        if (slots.isEmpty()) {
            return;
        }
        Slot slot = slots.get(r.nextInt(slots.size()));
        String kind = pick(r);
        JsonNode value;
        switch (kind) {
            case "remove" -> {
                slot.remove();
                log.add(slot.path + " removed");
                return;
            }
            case "null" -> value = F.nullNode();
            case "wrong type" -> value = wrongType(r, slot.get());
            case "lookalike" -> value = F.textNode(LOOKALIKES.get(r.nextInt(LOOKALIKES.size())));
            case "unicode" -> {
                String u = UNICODE.get(r.nextInt(UNICODE.size()));
                JsonNode old = slot.get();
                value = F.textNode(old != null && old.isTextual() && r.nextBoolean() ? old.textValue() + u : u);
            }
            case "huge string" -> {
                int[] sizes = {1_000, 70_000, 1_000_000, 3_300_000};
                int size = sizes[r.nextInt(r.nextInt(8) == 0 ? 4 : 3)];
                value = F.textNode("x".repeat(size));
                log.add(slot.path + " = a string of " + size + " characters");
                slot.set(value);
                return;
            }
            case "number" -> value = raw(raws, NUMBERS.get(r.nextInt(NUMBERS.size())));
            case "deep" -> {
                int[] depths = {64, 999, 1_001, 5_000, 100_000};
                int depth = depths[r.nextInt(depths.length)];
                String raw = r.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth)
                        : "{\"a\":".repeat(depth) + "null" + "}".repeat(depth);
                value = raw(raws, raw);
                log.add(slot.path + " = nested " + depth + " deep");
                slot.set(value);
                return;
            }
            case "wide" -> {
                int n = r.nextBoolean() ? 1_000 : 40_000;
                if (r.nextBoolean()) {
                    ArrayNode a = F.arrayNode();
                    JsonNode element = r.nextBoolean() ? F.nullNode() : F.objectNode().put("name", "p").put("port", 80);
                    for (int i = 0; i < n; i++) {
                        a.add(element.deepCopy());
                    }
                    value = a;
                } else {
                    ObjectNode o = F.objectNode();
                    for (int i = 0; i < n; i++) {
                        o.put("k" + i, i);
                    }
                    value = o;
                }
                log.add(slot.path + " = " + (value.isArray() ? "an array" : "an object") + " of " + n + " entries");
                slot.set(value);
                return;
            }
            case "duplicate key" -> {
                if (slot.field == null) {
                    value = F.nullNode();
                    kind = "null";
                } else {
                    String marker = "\u0001DUP" + raws.size() + "\u0001";
                    raws.put(marker, "\"" + escape(slot.field) + "\"");
                    JsonNode again = r.nextBoolean() ? wrongType(r, slot.get()) : F.nullNode();
                    ((ObjectNode) slot.container).set(marker, again);
                    log.add(slot.path + " duplicated with " + again);
                    return;
                }
            }
            case "transplant" -> {
                JsonNode donor = donors.isEmpty() ? focus : donors.get(r.nextInt(donors.size()));
                List<Slot> donorSlots = new ArrayList<>();
                collect(donor, "", donorSlots, 0);
                Slot from = donorSlots.get(r.nextInt(donorSlots.size()));
                value = from.get() == null ? F.nullNode() : from.get().deepCopy();
                log.add(slot.path + " = the value of another object's " + from.path);
                slot.set(value);
                return;
            }
            case "null element" -> {
                JsonNode old = slot.get();
                ArrayNode a = F.arrayNode();
                if (old != null && old.isArray() && !old.isEmpty()) {
                    a = (ArrayNode) old.deepCopy();
                    a.insert(r.nextInt(a.size() + 1), F.nullNode());
                } else {
                    a.addNull();
                    if (old != null && r.nextBoolean()) {
                        a.add(old.deepCopy());
                    }
                }
                value = a;
            }
            case "raw string" -> value = raw(raws, RAW_STRINGS.get(r.nextInt(RAW_STRINGS.size())));
            default -> throw new IllegalStateException(kind);
        }
        slot.set(value);
        log.add(slot.path + " = " + kind + " " + abbreviate(value, raws));
    }

    private static String pick(SplittableRandom r) {
        int total = 0;
        for (int w : WEIGHTS) {
            total += w;
        }
        int x = r.nextInt(total);
        for (int i = 0; i < WEIGHTS.length; i++) {
            x -= WEIGHTS[i];
            if (x < 0) {
                return KINDS[i];
            }
        }
        return KINDS[0];
    }

    private static JsonNode wrongType(SplittableRandom r, JsonNode old) {
        List<JsonNode> options = new ArrayList<>(List.of(F.textNode("x"), F.numberNode(7), F.booleanNode(true),
                F.arrayNode(), F.objectNode(), F.arrayNode().add("x"), F.objectNode().putNull("x"),
                F.numberNode(-3.5), F.textNode("")));
        if (old != null) {
            options.removeIf(o -> o.getNodeType() == old.getNodeType() && !o.isContainerNode());
            if (old.isTextual()) {
                options.add(F.arrayNode().add(old.textValue()));
                options.add(F.objectNode().put(old.textValue(), old.textValue()));
            }
            if (old.isNumber()) {
                options.add(F.textNode(old.asText()));
            }
        }
        return options.get(r.nextInt(options.size()));
    }

    private static JsonNode raw(Map<String, String> raws, String text) {
        String marker = "\u0001RAW" + raws.size() + "\u0001";
        raws.put(marker, text);
        return TextNode.valueOf(marker);
    }

    private static String abbreviate(JsonNode value, Map<String, String> raws) {
        String text = value.isTextual() && raws.containsKey(value.textValue()) ? raws.get(value.textValue())
                : value.toString();
        return text.length() <= 60 ? text : text.substring(0, 60) + "... (" + text.length() + " chars)";
    }

    static String escape(String s) {
        return F.textNode(s).toString().replaceAll("^\"|\"$", "");
    }

    private static void collect(JsonNode node, String path, List<Slot> out, int depth) {
        if (depth > 40 || node == null) {
            return;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path + "." + e.getKey();
                out.add(new Slot(node, e.getKey(), -1, p));
                collect(e.getValue(), p, out, depth + 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size() && i < 50; i++) {
                String p = path + "[" + i + "]";
                out.add(new Slot(node, null, i, p));
                collect(node.get(i), p, out, depth + 1);
            }
        }
    }
}
