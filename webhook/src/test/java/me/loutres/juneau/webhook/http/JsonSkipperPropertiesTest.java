package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The byte-level skip of {@code metadata.managedFields} against Jackson's own skip: wherever the skipper answers, Jackson
 * reads the same value to the same closing bracket; on anything Jackson refuses the skipper answers "not found" (so
 * Jackson, falling back, refuses it with its own words); and on JSON of its subset it does answer.
 */
class JsonSkipperPropertiesTest {
    private static final JsonFactory JACKSON = new JsonFactory();
    private static final int MAX_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

    /** Generated JSON text; {@code strict} when it is within the skipper's subset by construction. */
    record Case(byte[] bytes, boolean strict) {
        @Override
        public String toString() {
            return (strict ? "strict " : "") + new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** Where Jackson's skip of the value at the start ends (index of its closing bracket), or -1 if it refuses it. */
    static int jacksonEnd(byte[] b) {
        try (JsonParser p = JACKSON.createParser(b)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_ARRAY && first != JsonToken.START_OBJECT) {
                return -2;
            }
            p.skipChildren();
            return (int) p.currentTokenLocation().getByteOffset();
        } catch (IOException refused) {
            return -1;
        }
    }

    @Property(tries = 4000)
    void whereTheSkipperAnswersJacksonEndsAtTheSameBracket(@ForAll("texts") Case c) {
        int jackson = jacksonEnd(c.bytes());
        int skipper = JsonSkipper.end(c.bytes(), 1, c.bytes().length, MAX_DEPTH - 1);
        if (jackson == -2) {
            assertThat(skipper).isEqualTo(-1); // not an array or object at all
        } else if (skipper >= 0) {
            assertThat(skipper).as("Jackson reads it to the same bracket").isEqualTo(jackson);
            assertThat(c.bytes()[skipper]).isIn((byte) ']', (byte) '}');
        } else {
            assertThat(c.strict()).as("JSON of the subset is skipped").isFalse();
        }
        if (jackson == -1) {
            assertThat(skipper).as("what Jackson refuses is left to Jackson").isEqualTo(-1);
        }
    }

    @Property(tries = 300)
    void deepValuesAreSkippedOnlyWithinBothLimits(@ForAll("depths") int levels) {
        JsonGen gen = new JsonGen(new Random(levels), true);
        byte[] b = gen.bytes(gen.nested(levels));
        int skipper = JsonSkipper.end(b, 1, b.length, MAX_DEPTH - 1);
        assertThat(skipper >= 0).isEqualTo(levels <= JsonSkipper.MAX_DEPTH);
        if (skipper >= 0) {
            assertThat(skipper).isEqualTo(jacksonEnd(b));
        }
        // allowed fewer levels than the value has: left to Jackson, whose own limit then decides
        assertThat(JsonSkipper.end(b, 1, b.length, levels - 1)).isEqualTo(-1);
    }

    @Test
    void beyondJacksonsDepthJacksonRefusesAndTheSkipperLeavesItToJackson() {
        byte[] b = ("[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1)).getBytes(StandardCharsets.US_ASCII);
        assertThat(jacksonEnd(b)).isEqualTo(-1);
        assertThat(JsonSkipper.end(b, 1, b.length, MAX_DEPTH - 1)).isEqualTo(-1);
    }

    @Test
    void theValueMayBeFollowedByAnythingAndStartAnywhere() {
        byte[] b = "{\"managedFields\":[{\"a\":\"\\u00e9\\n\",\"b\":[1,-2.5e3,true,null]}],\"x\":1}"
                .getBytes(StandardCharsets.US_ASCII);
        int open = "{\"managedFields\":".length();
        assertThat(JsonSkipper.end(b, open + 1, b.length, 10)).isEqualTo(b.length - ",\"x\":1}".length() - 1);
        assertThat(JsonSkipper.end(b, open + 1, b.length - 8, 10)).as("cut before its end").isEqualTo(-1);
        assertThat(JsonSkipper.end(b, open, b.length, 10)).as("not just after a bracket").isEqualTo(-1);
    }

    @Provide
    Arbitrary<Case> texts() {
        return Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            boolean strict = r.nextInt(3) > 0;
            JsonGen gen = new JsonGen(r, strict);
            Object value = r.nextBoolean() ? gen.obj(r.nextInt(6)) : gen.arr(r.nextInt(6));
            if (r.nextInt(6) == 0) {
                // an invalid number or literal somewhere inside
                var objects = JsonGen.objects(value);
                if (!objects.isEmpty()) {
                    objects.get(r.nextInt(objects.size())).put(gen.word(), gen.invalidScalar());
                    strict = false;
                }
            }
            byte[] bytes = gen.bytes(value);
            if (r.nextInt(4) == 0) {
                bytes = gen.damage(bytes);
                strict = false;
            }
            return new Case(bytes, strict);
        });
    }

    @Provide
    Arbitrary<Integer> depths() {
        return Arbitraries.integers().between(1, 120);
    }
}
