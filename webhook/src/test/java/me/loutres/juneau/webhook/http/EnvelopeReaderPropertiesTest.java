package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import me.loutres.juneau.webhook.bench.ServiceReview;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The envelope read in one pass ({@link EnvelopeReader}) against Jackson's bean binding, on generated reviews as the
 * API server sends them and on damaged ones: the decoded review is the same, field by field, with and without
 * managedFields, and a refused body is refused with the same status and words. The plain ones are read in one pass.
 */
class EnvelopeReaderPropertiesTest {
    private static final AdmissionCodec CODEC = new AdmissionCodec();

    /** A generated body; {@code plain} when it has the shape the one pass reads. */
    record Body(byte[] bytes, boolean plain) {
        @Override
        public String toString() {
            return (plain ? "plain " : "damaged ") + new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** What decoding gave: the review, or the refusal. */
    record Outcome(AdmissionCodec.Decoded decoded, int status, String reason) {
    }

    static Outcome outcome(Decoding decoding) {
        try {
            return new Outcome(decoding.decode(), 0, null);
        } catch (RejectedRequestException refused) {
            return new Outcome(null, refused.status(), refused.reason());
        }
    }

    interface Decoding {
        AdmissionCodec.Decoded decode() throws RejectedRequestException;
    }

    @Property(tries = 3000)
    void theOnePassDecodesWhatTheBindingDecodes(@ForAll("bodies") Body body) {
        byte[] sent = body.bytes().clone();
        for (boolean keepManagedFields : new boolean[] {true, false}) {
            Outcome onePass = outcome(() -> CODEC.decode(body.bytes(), keepManagedFields));
            Outcome binding = outcome(() -> CODEC.decodeByBinding(body.bytes(), keepManagedFields));
            assertThat(onePass).as("keepManagedFields %s", keepManagedFields).isEqualTo(binding);
            if (onePass.decoded() != null) {
                var one = onePass.decoded().request();
                var bound = binding.decoded().request();
                // field by field too, so that a difference is named
                assertThat(one.getObject()).isEqualTo(bound.getObject());
                assertThat(one.getOldObject()).isEqualTo(bound.getOldObject());
                assertThat(one.getOptions()).isEqualTo(bound.getOptions());
                assertThat(one.getUserInfo()).isEqualTo(bound.getUserInfo());
                assertThat(one.getAdditionalProperties()).isEqualTo(bound.getAdditionalProperties());
            }
            if (body.plain()) {
                assertThat(CODEC.readInOnePass(body.bytes(), keepManagedFields)).as("read in one pass").isNotNull();
            }
        }
        assertThat(body.bytes()).as("the body itself is left as sent").isEqualTo(sent);
    }

    @Test
    void theBenchReviewIsReadInOnePassWithoutManagedFields() throws Exception {
        byte[] body = ServiceReview.json();
        AdmissionCodec.Received lean = CODEC.readInOnePass(body, false);
        assertThat(lean).isNotNull();
        assertThat(lean.request.getObject().toString()).doesNotContain("managedFields").contains("storefront");
        assertThat(CODEC.decode(body, false)).isEqualTo(CODEC.decodeByBinding(body, false));
        assertThat(CODEC.decode(body, true)).isEqualTo(CODEC.decodeByBinding(body, true));
    }

    @Provide
    Arbitrary<Body> bodies() {
        return Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            JsonGen gen = new JsonGen(r, r.nextBoolean());
            JsonGen.Obj review = review(gen);
            int damage = r.nextInt(10);
            if (damage < 5) {
                return new Body(gen.bytes(review), true);
            }
            if (damage < 8) {
                treeDamage(gen, review);
                return new Body(gen.bytes(review), false);
            }
            if (damage < 9) {
                return new Body(gen.damage(gen.bytes(review)), false);
            }
            String[] notReviews = {"null", "[]", "5", "\"x\"", " ", "{}", "{\"request\":null}", "{} {}", "{\"a\":1}x"};
            return new Body(notReviews[r.nextInt(notReviews.length)].getBytes(StandardCharsets.UTF_8), false);
        });
    }

    /** A review of the plain shape: fields in random order, some missing, values of their own JSON types. */
    private static JsonGen.Obj review(JsonGen gen) {
        Random r = gen.random();
        List<Object[]> top = new ArrayList<>();
        top.add(new Object[] {"apiVersion", gen.text(r.nextInt(12) > 0 ? AdmissionCodec.API_VERSION : "admission.k8s.io/v1beta1")});
        if (r.nextInt(12) > 0) {
            top.add(new Object[] {"kind", gen.text(AdmissionCodec.KIND)});
        }
        if (r.nextInt(20) > 0) {
            top.add(new Object[] {"request", request(gen)});
        }
        if (r.nextInt(5) == 0) {
            top.add(new Object[] {"x-" + gen.word(), gen.value(3)}); // unknown envelope fields are ignored
        }
        return shuffled(r, top);
    }

    private static JsonGen.Obj request(JsonGen gen) {
        Random r = gen.random();
        List<Object[]> fields = new ArrayList<>();
        maybe(r, fields, "uid", () -> gen.text(r.nextInt(10) > 0 ? "uid-" + gen.word() : ""));
        maybe(r, fields, "kind", () -> gvk(gen, "kind"));
        maybe(r, fields, "resource", () -> gvk(gen, "resource"));
        maybe(r, fields, "subResource", () -> gen.text(gen.word()));
        maybe(r, fields, "requestKind", () -> gvk(gen, "kind"));
        maybe(r, fields, "requestResource", () -> gvk(gen, "resource"));
        maybe(r, fields, "requestSubResource", () -> gen.text(gen.word()));
        maybe(r, fields, "name", () -> gen.text(gen.word()));
        maybe(r, fields, "namespace", () -> gen.text(gen.word()));
        maybe(r, fields, "operation", () -> gen.text(List.of("CREATE", "UPDATE", "DELETE", "CONNECT").get(r.nextInt(4))));
        maybe(r, fields, "userInfo", () -> userInfo(gen));
        maybe(r, fields, "object", () -> r.nextInt(10) > 0 ? kubeObject(gen) : gen.value(2));
        maybe(r, fields, "oldObject", () -> r.nextBoolean() ? JsonGen.NULL : kubeObject(gen));
        maybe(r, fields, "dryRun", () -> new JsonGen.Raw(Boolean.toString(r.nextBoolean())));
        maybe(r, fields, "options", () -> r.nextInt(4) == 0 ? JsonGen.NULL : gen.value(3));
        return shuffled(r, fields);
    }

    private static JsonGen.Obj gvk(JsonGen gen, String last) {
        Random r = gen.random();
        List<Object[]> fields = new ArrayList<>();
        maybe(r, fields, "group", () -> gen.text(r.nextBoolean() ? "" : gen.word()));
        maybe(r, fields, "version", () -> gen.text("v1"));
        maybe(r, fields, last, () -> gen.text(gen.word()));
        return shuffled(r, fields);
    }

    private static JsonGen.Obj userInfo(JsonGen gen) {
        Random r = gen.random();
        List<Object[]> fields = new ArrayList<>();
        maybe(r, fields, "username", () -> gen.text("system:" + gen.word()));
        maybe(r, fields, "uid", () -> gen.text(gen.word()));
        maybe(r, fields, "groups", () -> strings(gen));
        maybe(r, fields, "extra", () -> {
            JsonGen.Obj extra = new JsonGen.Obj();
            for (int n = r.nextInt(4); n > 0; n--) {
                extra.put("k" + n + gen.word(), strings(gen));
            }
            return extra;
        });
        return shuffled(r, fields);
    }

    private static List<Object> strings(JsonGen gen) {
        List<Object> list = new ArrayList<>();
        for (int n = gen.random().nextInt(4); n > 0; n--) {
            list.add(gen.text(gen.word()));
        }
        return list;
    }

    /** An object as the API server sends it, with metadata and (mostly) managedFields. */
    private static JsonGen.Obj kubeObject(JsonGen gen) {
        Random r = gen.random();
        List<Object[]> metadata = new ArrayList<>();
        maybe(r, metadata, "name", () -> gen.text(gen.word()));
        maybe(r, metadata, "namespace", () -> gen.text(gen.word()));
        maybe(r, metadata, "labels", () -> gen.obj(1));
        maybe(r, metadata, "annotations", () -> gen.obj(1));
        maybe(r, metadata, "managedFields", () -> switch (r.nextInt(6)) {
            case 0 -> gen.value(2);
            case 1 -> gen.nested(1 + r.nextInt(80));
            default -> {
                List<Object> entries = new ArrayList<>();
                for (int n = 1 + r.nextInt(3); n > 0; n--) {
                    entries.add(new JsonGen.Obj().put("manager", gen.text(gen.word()))
                            .put("operation", gen.text("Update")).put("fieldsType", gen.text("FieldsV1"))
                            .put("fieldsV1", gen.obj(4)));
                }
                yield entries;
            }
        });
        if (r.nextInt(4) == 0) {
            metadata.add(new Object[] {gen.word(), gen.value(2)});
        }
        List<Object[]> fields = new ArrayList<>();
        maybe(r, fields, "apiVersion", () -> gen.text("v1"));
        maybe(r, fields, "kind", () -> gen.text("Service"));
        maybe(r, fields, "metadata", () -> r.nextInt(15) > 0 ? shuffled(r, metadata) : gen.value(1));
        maybe(r, fields, "spec", () -> gen.value(3));
        maybe(r, fields, "status", () -> gen.value(2));
        return shuffled(r, fields);
    }

    /**
     * One change a client could make: a value of another type or null, a key twice, an unknown key, an invalid scalar,
     * a missing key; anywhere in the review, envelope or objects.
     */
    private static void treeDamage(JsonGen gen, JsonGen.Obj review) {
        Random r = gen.random();
        List<JsonGen.Obj> objects = JsonGen.objects(review);
        JsonGen.Obj target = objects.get(r.nextInt(objects.size()));
        int at = target.names.isEmpty() ? -1 : r.nextInt(target.names.size());
        switch (at < 0 ? 2 : r.nextInt(6)) {
            case 0 -> target.values.set(at, gen.value(2));
            case 1 -> target.values.set(at, JsonGen.NULL);
            case 2 -> target.put(r.nextBoolean() ? gen.word() : "additional", gen.value(2));
            case 3 -> target.put(target.names.get(at), r.nextBoolean() ? target.values.get(at) : gen.value(2));
            case 4 -> target.values.set(at, gen.invalidScalar());
            default -> {
                target.names.remove(at);
                target.values.remove(at);
            }
        }
    }

    private static void maybe(Random r, List<Object[]> fields, String name, java.util.function.Supplier<Object> value) {
        if (r.nextInt(10) > 0) {
            fields.add(new Object[] {name, value.get()});
        }
    }

    private static JsonGen.Obj shuffled(Random r, List<Object[]> fields) {
        Collections.shuffle(fields, r);
        JsonGen.Obj o = new JsonGen.Obj();
        fields.forEach(f -> o.put((String) f[0], f[1]));
        return o;
    }
}
