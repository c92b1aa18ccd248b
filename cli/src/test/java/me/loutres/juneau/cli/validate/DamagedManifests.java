package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import me.loutres.juneau.webhook.fuzz.ByteDamage;
import me.loutres.juneau.webhook.fuzz.FuzzCase;
import me.loutres.juneau.webhook.fuzz.TreeDamage;

/**
 * The fuzzer's generator of manifests for {@code juneau validate}: a realistic set of objects (pools, networks, a
 * Node, Services, a ServiceLoadBalancer) damaged in one to three places, written as YAML block documents (or JSON),
 * sometimes with damage only YAML has: empty values, tabs, alias bombs, tags, merge keys, broken quoting, CRLF.
 * The same seed always gives the same file.
 */
public final class DamagedManifests {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String YAML = "application/yaml";

    private static final String SEED = """
            [{"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-bgp"},
              "spec":{"advertiseMode":"bgp","addresses":["203.0.113.0/28","203.0.113.64/27"]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-arp"},
              "spec":{"advertiseMode":"arp","addresses":["198.51.100.10-198.51.100.20"]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"public"},
              "spec":{"type":"bgp","addressPools":["pool-bgp"]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"lan"},
              "spec":{"type":"arp","addressPools":["pool-arp"]}},
             {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"},
              "status":{"addresses":[{"type":"InternalIP","address":"198.51.100.15"},{"type":"Hostname","address":"node-a"}]}},
             {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop",
               "labels":{"app":"web"},"annotations":{"juneau.loutres.me/load-balancer-external-network":"public",
               "juneau.loutres.me/load-balancer-requested-ip":"203.0.113.7"}},
              "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/load-balancer",
               "externalTrafficPolicy":"Local","selector":{"app":"web"},"ipFamilies":["IPv4"],
               "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080},
                        {"name":"dns","port":53,"protocol":"UDP","targetPort":"dns"}]}},
             {"apiVersion":"v1","kind":"Service","metadata":{"name":"printer","namespace":"office",
               "annotations":{"juneau.loutres.me/load-balancer-external-network":"lan"}},
              "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/load-balancer",
               "selector":{"app":"printer"},"ports":[{"port":631}]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ServiceLoadBalancer",
              "metadata":{"name":"old","namespace":"shop","finalizers":["serviceloadbalancer.juneau.loutres.me/allocation-claim"]},
              "spec":{"serviceRef":{"name":"old"},"externalNetwork":"public"},
              "status":{"phase":"Ready","vip":"203.0.113.5","addressPool":"pool-bgp"}}]""";

    private static final JsonNode DOCUMENTS = parse(SEED);

    private DamagedManifests() {
    }

    public static FuzzCase generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        ArrayNode docs = (ArrayNode) DOCUMENTS.deepCopy();
        // a realistic file has a few objects, not always all of them
        while (docs.size() > 1 && r.nextInt(3) == 0) {
            docs.remove(r.nextInt(docs.size()));
        }
        Map<String, String> raws = new LinkedHashMap<>();
        List<String> damage = new ArrayList<>();
        int operations = r.nextInt(4);
        for (int i = 0; i < operations; i++) {
            TreeDamage.damage(r, docs, "", raws, damage, List.of(DOCUMENTS));
        }
        boolean yaml = r.nextInt(5) != 0;
        String yamlDamage = yaml && r.nextInt(3) == 0 ? YamlDamage.pick(r) : null;
        if (yamlDamage != null) {
            damage.add("YAML: " + yamlDamage);
        }
        ByteDamage bytes = r.nextInt(12) == 0 ? randomBytes(r) : ByteDamage.NONE;
        if (bytes != ByteDamage.NONE) {
            damage.add(bytes.toString());
        }
        // the method field carries the YAML damage (with its own seed) for the renderer
        return new FuzzCase(seed, "manifests", yamlDamage == null ? "none" : yamlDamage + "@" + r.nextLong(),
                "-f", yaml ? YAML : "application/json", damage, docs, raws, bytes);
    }

    private static ByteDamage randomBytes(SplittableRandom r) {
        ByteDamage b;
        do {
            b = ByteDamage.random(r);
        } while (b.kind() == ByteDamage.Kind.UTF16 && r.nextBoolean());
        return b;
    }

    /** The file content as written: YAML documents (or one JSON document per object), then the YAML and byte damage. */
    public static byte[] render(FuzzCase c) {
        StringBuilder out = new StringBuilder();
        JsonNode docs = c.tree();
        List<JsonNode> list = new ArrayList<>();
        if (docs != null && docs.isArray()) {
            docs.forEach(list::add);
        } else if (docs != null) {
            list.add(docs);
        }
        for (JsonNode doc : list) {
            out.append("---\n");
            if (YAML.equals(c.contentType())) {
                if (doc.isContainerNode() && !doc.isEmpty()) {
                    block(doc, 0, out, c.raws());
                } else {
                    out.append(scalar(doc, c.raws())).append('\n');
                }
            } else {
                out.append(new String(FuzzCase.render(doc, c.raws()), StandardCharsets.UTF_8)).append('\n');
            }
        }
        String text = out.toString();
        if (!c.method().equals("none")) {
            String[] parts = c.method().split("@");
            text = YamlDamage.apply(parts[0], text, new SplittableRandom(Long.parseLong(parts[1])));
        }
        return c.bytes().apply(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void block(JsonNode node, int indent, StringBuilder out, Map<String, String> raws) {
        String pad = " ".repeat(indent);
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = raws.containsKey(e.getKey()) ? raws.get(e.getKey()) : quote(e.getKey());
                out.append(pad).append(key).append(':');
                child(e.getValue(), indent, out, raws);
            }
        } else {
            for (JsonNode element : node) {
                out.append(pad).append('-');
                child(element, indent, out, raws);
            }
        }
    }

    private static void child(JsonNode value, int indent, StringBuilder out, Map<String, String> raws) {
        if (value.isContainerNode() && !value.isEmpty()) {
            out.append('\n');
            block(value, indent + 2, out, raws);
        } else {
            out.append(' ').append(scalar(value, raws)).append('\n');
        }
    }

    private static String scalar(JsonNode value, Map<String, String> raws) {
        if (value.isTextual() && raws.containsKey(value.textValue())) {
            return raws.get(value.textValue());
        }
        if (value.isTextual()) {
            return quote(value.textValue());
        }
        return value.toString();
    }

    /** A JSON string literal is a YAML double-quoted scalar. */
    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Damage only YAML text can have. */
    static final class YamlDamage {
        private static final String[] KINDS = {"empty value", "tab indent", "alias bomb", "tag", "truncate line",
                "unterminated quote", "crlf", "nul", "duplicate line", "merge key", "document marker", "long key",
                "flow garbage", "anchor to nothing"};

        private YamlDamage() {
        }

        static String pick(SplittableRandom r) {
            return KINDS[r.nextInt(KINDS.length)];
        }

        static String apply(String kind, String text, SplittableRandom r) {
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            int at = r.nextInt(Math.max(1, lines.size()));
            String line = lines.get(at);
            switch (kind) {
                case "empty value" -> {
                    // `annotations:`, `ports:`, `externalTrafficPolicy:` with nothing after them: JSON null to YAML
                    List<Integer> keyed = new ArrayList<>();
                    for (int i = 0; i < lines.size(); i++) {
                        if (lines.get(i).matches("\\s*\"[^\"]*\":.*")) {
                            keyed.add(i);
                        }
                    }
                    if (!keyed.isEmpty()) {
                        int i = keyed.get(r.nextInt(keyed.size()));
                        String l = lines.get(i);
                        int colon = l.indexOf("\":") + 2;
                        lines.set(i, l.substring(0, colon));
                        // drop the block below it, which now belongs to nothing
                        int indent = l.length() - l.stripLeading().length();
                        while (i + 1 < lines.size() && !lines.get(i + 1).isBlank()
                                && lines.get(i + 1).length() - lines.get(i + 1).stripLeading().length() > indent
                                && !lines.get(i + 1).startsWith("---")) {
                            lines.remove(i + 1);
                        }
                    }
                }
                case "tab indent" -> lines.set(at, line.replaceFirst("^ +", "\t"));
                case "alias bomb" -> lines.add(0, "---\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n"
                        + "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                        + "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                        + "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
                        + "kind: [*g,*g,*g,*g,*g,*g,*g,*g,*g]");
                case "tag" -> lines.set(at, line.replaceFirst(": .*$", List.of(": !!binary AAAA",
                        ": !!python/object/apply:os.system [\"true\"]", ": !!java.net.URL [\"http://127.0.0.1/\"]",
                        ": !<tag:yaml.org,2002:int> x", ": !!timestamp 2026-13-45").get(r.nextInt(5))));
                case "truncate line" -> lines.set(at, line.substring(0, r.nextInt(line.length() + 1)));
                case "unterminated quote" -> lines.set(at, line + " \"unterminated");
                case "crlf" -> {
                    return String.join("\r\n", lines);
                }
                case "nul" -> lines.set(at, line + "\u0000");
                case "duplicate line" -> lines.add(at, line);
                case "merge key" -> lines.add(at, line.replaceFirst("\\S.*$", "<<: {\"kind\": \"Service\"}"));
                case "document marker" -> lines.add(at, r.nextBoolean() ? "..." : "--- !!str");
                case "long key" -> lines.add(at, "\"" + "k".repeat(200_000) + "\": 1");
                case "flow garbage" -> lines.set(at, line + " {[}]");
                case "anchor to nothing" -> lines.set(at, line.replaceFirst(": .*$", ": *nowhere"));
                default -> throw new IllegalStateException(kind);
            }
            return String.join("\n", lines);
        }
    }
}
