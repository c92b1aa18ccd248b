package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import me.loutres.juneau.webhook.bench.ServiceReview;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Service paths' leaner envelope: objects read without {@code metadata.managedFields}, and the plain "allowed"
 * answer written from a template. Both must say exactly what the full reading and Jackson's writer say.
 */
class AdmissionCodecLeanTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AdmissionCodec codec = new AdmissionCodec();

    @Test
    void objectsWithoutManagedFieldsAreTheFullObjectsWithoutIt() throws Exception {
        byte[] body = ServiceReview.json();
        AdmissionCodec.Decoded full = codec.decode(body, true);
        AdmissionCodec.Decoded lean = codec.decode(body, false);
        ObjectNode expected = ((ObjectNode) full.request().getObject()).deepCopy();
        assertThat(expected.path("metadata").has("managedFields")).isTrue();
        ((ObjectNode) expected.get("metadata")).remove("managedFields");
        assertThat((JsonNode) lean.request().getObject()).isEqualTo(expected);
        assertThat(lean.request().getUid()).isEqualTo(full.request().getUid());
        assertThat(lean.request().getUserInfo()).isEqualTo(full.request().getUserInfo());
        assertThat(lean.request().getOptions()).isEqualTo(full.request().getOptions());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "\"x\"", "null", "{\"a\":[1,{\"b\":null}]}", "[[[[]]]]", "true"})
    void whateverManagedFieldsHoldsOnlyItIsLeftOut(String managedFields) throws Exception {
        String body = new String(ServiceReview.json(), StandardCharsets.UTF_8)
                .replace("\"managedFields\":[", "\"managedFields\":" + managedFields + ",\"was\":[");
        AdmissionCodec.Decoded full = codec.decode(body.getBytes(StandardCharsets.UTF_8), true);
        AdmissionCodec.Decoded lean = codec.decode(body.getBytes(StandardCharsets.UTF_8), false);
        ObjectNode expected = ((ObjectNode) full.request().getObject()).deepCopy();
        ((ObjectNode) expected.get("metadata")).remove("managedFields");
        assertThat((JsonNode) lean.request().getObject()).isEqualTo(expected);
        assertThat(((JsonNode) lean.request().getObject()).path("metadata").has("was")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // managedFields cut short, a metadata that is no object, an object that is no object, nesting beyond the limit
        "\"managedFields\":[{\"manager\":",
        "\"metadata\":{\"name\":\"storefront\"",
        "\"object\":{\"kind\""})
    void aBrokenBodyIsRefusedWithTheSameWordsEitherWay(String cutAt) {
        String whole = new String(ServiceReview.json(), StandardCharsets.UTF_8);
        String body = whole.substring(0, whole.indexOf(cutAt) + cutAt.length()) + "}}";
        RejectedRequestException full = catchThrowableOfType(RejectedRequestException.class,
                () -> codec.decode(body.getBytes(StandardCharsets.UTF_8), true));
        RejectedRequestException lean = catchThrowableOfType(RejectedRequestException.class,
                () -> codec.decode(body.getBytes(StandardCharsets.UTF_8), false));
        assertThat(full).isNotNull();
        assertThat(lean).isNotNull();
        assertThat(lean.status()).isEqualTo(400);
        assertThat(lean.reason()).isEqualTo(full.reason());
    }

    @Test
    void deepManagedFieldsAreStillRefusedAsTooDeep() {
        String deep = "[".repeat(2000) + "]".repeat(2000);
        String body = new String(ServiceReview.json(), StandardCharsets.UTF_8)
                .replace("\"managedFields\":[", "\"managedFields\":" + deep + ",\"was\":[");
        RejectedRequestException lean = catchThrowableOfType(RejectedRequestException.class,
                () -> codec.decode(body.getBytes(StandardCharsets.UTF_8), false));
        assertThat(lean).isNotNull();
        assertThat(lean.reason()).contains("nested deeper than");
    }

    @Test
    void theAllowedTemplateWritesWhatTheWriterWrites() throws Exception {
        AdmissionCodec.Decoded received = codec.decode(ServiceReview.json(), false);
        SplittableRandom random = new SplittableRandom(22);
        for (int i = 0; i < 2000; i++) {
            StringBuilder uid = new StringBuilder();
            for (int n = random.nextInt(0, 60); n > 0; n--) {
                // mostly printable ASCII, sometimes a quote, a backslash, a control character or beyond ASCII
                uid.append(random.nextInt(10) > 0 ? (char) random.nextInt(0x20, 0x7f)
                        : "\"\\\n\u0001é\u2028😀".charAt(random.nextInt(8)));
            }
            AdmissionResponse response = allowed(uid.toString());
            assertThat(new String(codec.encode(received, response), StandardCharsets.UTF_8)).as("uid %s", uid)
                    .isEqualTo(new String(codec.encodeWithWriter(received, response), StandardCharsets.UTF_8));
        }
        JsonNode parsed = JSON.readTree(codec.encode(received, allowed("0b8c-uid")));
        assertThat(parsed.path("response").path("uid").asText()).isEqualTo("0b8c-uid");
        assertThat(parsed.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(parsed.path("apiVersion").asText()).isEqualTo(AdmissionCodec.API_VERSION);
    }

    @Test
    void anyOtherAnswerIsWrittenByTheWriter() throws Exception {
        AdmissionCodec.Decoded received = codec.decode(ServiceReview.json(), false);
        AdmissionResponse warned = allowed("u-1");
        warned.setWarnings(List.of("a warning"));
        AdmissionResponse denied = new AdmissionResponse();
        denied.setUid("u-2");
        denied.setAllowed(false);
        denied.setStatus(new StatusBuilder().withCode(403).withMessage("no").build());
        AdmissionResponse patched = allowed("u-3");
        patched.setPatchType("JSONPatch");
        patched.setPatch("W10=");
        AdmissionResponse audited = allowed("u-4");
        audited.setAuditAnnotations(Map.of("a", "b"));
        for (AdmissionResponse r : List.of(warned, denied, patched, audited)) {
            assertThat(new String(codec.encode(received, r), StandardCharsets.UTF_8))
                    .isEqualTo(new String(codec.encodeWithWriter(received, r), StandardCharsets.UTF_8))
                    .contains("\"uid\":\"" + r.getUid() + "\"");
        }
        assertThat(new String(codec.encode(received, warned), StandardCharsets.UTF_8)).contains("a warning");
    }

    private static AdmissionResponse allowed(String uid) {
        AdmissionResponse response = new AdmissionResponse();
        response.setAllowed(true);
        response.setUid(uid);
        return response;
    }
}
