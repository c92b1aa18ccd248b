package me.loutres.juneau.webhook.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The fuzzer's generator of AdmissionReviews: a seed review ({@link Seeds}) damaged in one to three places (mostly
 * inside the reviewed objects, where the rules read), sometimes sent to the wrong path, with an odd content type or
 * with its bytes damaged. The same seed always gives the same case.
 */
public final class DamagedReviews {
    private static final List<String> PATHS = List.of("/validate/services", "/mutate/services", "/validate/addresspools",
            "/validate/externalnetworks", "/validate/serviceloadbalancers", "/validate/arpadvertisements",
            "/validate/bgppeers", "/validate/bfdprofiles", "/validate/bgpsessions");
    private static final List<String> ODD_PATHS = List.of("/validate/pods", "/validate/services/", "/", "/mutate/addresspools",
            "/validate/%2e%2e/services", "/healthz/../validate/services");
    private static final List<String> CONTENT_TYPES = List.of("application/json; charset=utf-8", "APPLICATION/JSON",
            "application/json;charset=utf-16", "application/merge-patch+json", "text/plain", "application/x-yaml",
            "application/json; boundary=\"x\"", "multipart/form-data", "");

    private DamagedReviews() {
    }

    public static FuzzCase generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Seeds.Seed> seeds = Seeds.all();
        Seeds.Seed base = seeds.get(r.nextInt(seeds.size()));
        ObjectNode tree = base.review().deepCopy();
        Map<String, String> raws = new LinkedHashMap<>();
        List<String> damage = new ArrayList<>();
        List<JsonNode> donors = seeds.stream().map(s -> (JsonNode) s.review()).toList();
        int operations = 1 + r.nextInt(3);
        for (int i = 0; i < operations; i++) {
            JsonNode request = tree.get("request");
            int where = r.nextInt(10);
            if (where < 7 && request != null && request.isObject() && (request.hasNonNull("object")
                    || request.hasNonNull("oldObject"))) {
                String field = request.hasNonNull("object") && (!request.hasNonNull("oldObject") || r.nextBoolean())
                        ? "object" : "oldObject";
                JsonNode focus = request.get(field);
                if (focus.isContainerNode()) {
                    TreeDamage.damage(r, focus, "request." + field, raws, damage, donors);
                    continue;
                }
            }
            if (where < 9 && request != null && request.isObject()) {
                TreeDamage.damage(r, request, "request", raws, damage, donors);
            } else {
                TreeDamage.damage(r, tree, "", raws, damage, donors);
            }
        }
        String method = "POST";
        String path = base.path();
        int envelope = r.nextInt(40);
        if (envelope < 3) {
            path = PATHS.get(r.nextInt(PATHS.size()));
            damage.add("sent to " + path);
        } else if (envelope == 3) {
            path = ODD_PATHS.get(r.nextInt(ODD_PATHS.size()));
            damage.add("sent to " + path);
        } else if (envelope == 4) {
            method = r.nextBoolean() ? "PUT" : "GET";
            damage.add("method " + method);
        }
        String contentType = "application/json";
        if (r.nextInt(25) == 0) {
            contentType = r.nextInt(10) == 0 ? null : CONTENT_TYPES.get(r.nextInt(CONTENT_TYPES.size()));
            damage.add("Content-Type " + contentType);
        }
        ByteDamage bytes = ByteDamage.NONE;
        if (r.nextInt(8) == 0) {
            bytes = ByteDamage.random(r);
            damage.add(bytes.toString());
        }
        return new FuzzCase(seed, base.name(), method, path, contentType, damage, tree, raws, bytes);
    }
}
