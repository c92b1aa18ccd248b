package me.loutres.juneau.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.webhook.Reviewer;
import me.loutres.juneau.webhook.WebhookMetrics;
import me.loutres.juneau.webhook.testing.ServletExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;

/** The envelope alone (docs/admission.md), with the rules replaced by a Mockito reviewer. */
class AdmissionServletTest {
    private static final String VALIDATE = "/validate/services";
    private static final String MUTATE = "/mutate/services";
    private static final Map<String, String> PATHS = Map.of(
            VALIDATE, "services.validate.juneau.loutres.me",
            MUTATE, "services.mutate.juneau.loutres.me");
    private static final int CAP = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    private Reviewer reviewer;
    private WebhookMetrics metrics;
    private AdmissionServlet servlet;

    @BeforeEach
    void setUp() {
        reviewer = mock(Reviewer.class);
        metrics = new WebhookMetrics();
        servlet = new AdmissionServlet(reviewer, new AdmissionCodec(), PATHS, metrics, CAP);
    }

    static String review(String uid) {
        return """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
                  "uid":"%s","kind":{"group":"","version":"v1","kind":"Service"},
                  "resource":{"group":"","version":"v1","resource":"services"},
                  "name":"web","namespace":"default","operation":"CREATE",
                  "userInfo":{"username":"alice","groups":["system:authenticated"]},
                  "object":{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default"},
                            "spec":{"type":"LoadBalancer","ports":[{"port":80,"protocol":"TCP"}]}},
                  "oldObject":null,"dryRun":false,
                  "options":{"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"}}}
                """.formatted(uid);
    }

    private static AdmissionResponse allowed() {
        AdmissionResponse r = new AdmissionResponse();
        r.setAllowed(true);
        return r;
    }

    private ServletExchange serve(ServletExchange exchange) throws Exception {
        servlet.service(exchange.request(), exchange.response());
        return exchange;
    }

    private JsonNode responseOf(ServletExchange exchange) throws Exception {
        assertThat(exchange.status()).isEqualTo(200);
        assertThat(exchange.contentType()).isEqualTo("application/json");
        return JSON.readTree(exchange.body());
    }

    private static void assertOneLineRejection(ServletExchange exchange, int status) {
        assertThat(exchange.status()).isEqualTo(status);
        assertThat(exchange.contentType()).startsWith("text/plain");
        String text = exchange.text();
        assertThat(text).endsWith("\n");
        assertThat(text.strip()).doesNotContain("\n").isNotBlank()
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("com.fasterxml");
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})
    void onlyPostIsAllowed(String method) throws Exception {
        ServletExchange exchange = serve(new ServletExchange(method, VALIDATE, "application/json",
                new ByteArrayInputStream(review("u1").getBytes(StandardCharsets.UTF_8)), -1));
        assertOneLineRejection(exchange, 405);
        assertThat(exchange.headers()).containsEntry("Allow", "POST");
        assertThat(exchange.text()).contains(method).contains("POST");
        verify(reviewer, never()).review(anyString(), any());
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/yaml", "application/x-www-form-urlencoded", "json", ""})
    void nonJsonContentTypeIs415(String contentType) throws Exception {
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, contentType,
                review("u1").getBytes(StandardCharsets.UTF_8)));
        assertOneLineRejection(exchange, 415);
        assertThat(exchange.text()).contains("application/json");
        verify(reviewer, never()).review(anyString(), any());
    }

    @Test
    void missingContentTypeIs415() throws Exception {
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, null, review("u1").getBytes(StandardCharsets.UTF_8)));
        assertOneLineRejection(exchange, 415);
        assertThat(exchange.text()).contains("Content-Type header is missing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8",
            "application/merge-review+json"})
    void jsonContentTypesAreServed(String contentType) throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, contentType, review("u1").getBytes(StandardCharsets.UTF_8)));
        assertThat(responseOf(exchange).at("/response/allowed").asBoolean()).isTrue();
    }

    @Test
    void declaredLengthOverTheCapIs413AndTheBodyIsDroppedToItsEndSoTheClientReadsTheAnswer() throws Exception {
        ServletExchange exchange = serve(new ServletExchange("POST", VALIDATE, "application/json",
                new ByteArrayInputStream(new byte[CAP + 1]), CAP + 1));
        assertOneLineRejection(exchange, 413);
        assertThat(exchange.bytesRead()).isEqualTo(CAP + 1);
        assertThat(exchange.headers()).containsEntry("Connection", "close");
        verify(reviewer, never()).review(anyString(), any());
    }

    @Test
    void undeclaredLengthOverTheCapIs413AfterReadingJustPastTheCap() throws Exception {
        // an endless body: the server must stop on its own count, not on an end that never comes
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return ' ';
            }
        };
        ServletExchange exchange = serve(new ServletExchange("POST", VALIDATE, "application/json", endless, -1));
        assertOneLineRejection(exchange, 413);
        assertThat(exchange.text()).contains("larger than " + CAP + " bytes");
        // a body of undeclared length may never end: it is not read on to drop it either
        assertThat(exchange.bytesRead()).isEqualTo(CAP + 1);
    }

    @Test
    void aDeclaredLengthOverTheDiscardBoundIsNotReadAtAll() throws Exception {
        long huge = AdmissionServlet.DISCARD_LIMIT_BYTES + 1;
        ServletExchange exchange = serve(new ServletExchange("POST", VALIDATE, "application/json",
                new ByteArrayInputStream(new byte[CAP + 1]), huge));
        assertOneLineRejection(exchange, 413);
        assertThat(exchange.bytesRead()).isZero();
        assertThat(exchange.headers()).containsEntry("Connection", "close");
    }

    @Test
    void understatedLengthDoesNotLetABodyPastTheCap() throws Exception {
        byte[] big = (review("u1") + " ".repeat(CAP)).getBytes(StandardCharsets.UTF_8);
        ServletExchange exchange = serve(new ServletExchange("POST", VALIDATE, "application/json",
                new ByteArrayInputStream(big), 100));
        assertOneLineRejection(exchange, 413);
        verify(reviewer, never()).review(anyString(), any());
    }

    @Test
    void aBodyExactlyAtTheCapIsServed() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        String json = review("u1");
        byte[] exact = (json + " ".repeat(CAP - json.getBytes(StandardCharsets.UTF_8).length)).getBytes(StandardCharsets.UTF_8);
        assertThat(exact).hasSize(CAP);
        ServletExchange exchange = serve(new ServletExchange("POST", VALIDATE, "application/json",
                new SequenceInputStream(new ByteArrayInputStream(exact), InputStream.nullInputStream()), -1));
        assertThat(responseOf(exchange).at("/response/uid").asText()).isEqualTo("u1");
    }

    static Stream<Arguments> badReviews() {
        String ok = review("u1");
        return Stream.of(
                Arguments.of("empty body", "", "empty"),
                Arguments.of("not JSON", "apiVersion: admission.k8s.io/v1", "not valid JSON"),
                Arguments.of("truncated JSON", ok.substring(0, ok.length() / 2), "not valid JSON"),
                Arguments.of("trailing garbage", ok + " }", "not valid JSON"),
                Arguments.of("JSON array", "[1,2]", "not a JSON object"),
                Arguments.of("JSON string", "\"review\"", "not a JSON object"),
                Arguments.of("JSON null", "null", "null"),
                Arguments.of("no apiVersion", ok.replace("\"apiVersion\":\"admission.k8s.io/v1\",", ""), "apiVersion is missing"),
                Arguments.of("v1beta1", ok.replace("admission.k8s.io/v1\"", "admission.k8s.io/v1beta1\""), "\"admission.k8s.io/v1beta1\" is not served"),
                Arguments.of("other kind", ok.replace("\"kind\":\"AdmissionReview\"", "\"kind\":\"Status\""), "kind \"Status\""),
                Arguments.of("no kind", ok.replace("\"kind\":\"AdmissionReview\",", ""), "kind is missing"),
                Arguments.of("no request", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}", "request is missing"),
                Arguments.of("null request", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":null}", "request is missing"),
                Arguments.of("request is a string", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":\"x\"}", "request must be a JSON object"),
                Arguments.of("no uid", ok.replace("\"uid\":\"u1\",", ""), "request.uid is missing"),
                Arguments.of("empty uid", review(""), "request.uid is missing"),
                Arguments.of("userInfo of the wrong shape", ok.replace("\"userInfo\":{", "\"userInfo\":[{").replace("\"]},", "\"]}],"), "userInfo"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badReviews")
    void unreadableReviewsAre400WithOneLine(String what, String body, String reasonContains) throws Exception {
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, body));
        assertOneLineRejection(exchange, 400);
        assertThat(exchange.text()).contains(reasonContains);
        verify(reviewer, never()).review(anyString(), any());
    }

    /** Found by the fuzzer: Jackson's reasons named Java types ({@code String}, {@code ArrayList}, {@code JsonToken}). */
    static Stream<Arguments> misshapenFields() {
        String ok = review("u1");
        return Stream.of(
                Arguments.of(ok.replace("\"username\":\"alice\"", "\"username\":[]"),
                        "request.userInfo.username must be a string, not a list"),
                Arguments.of(ok.replace("\"username\":\"alice\"", "\"username\":{}"),
                        "request.userInfo.username must be a string, not an object"),
                Arguments.of(ok.replace("\"groups\":[\"system:authenticated\"]", "\"groups\":\"system:authenticated\""),
                        "request.userInfo.groups must be a list, not a string"),
                Arguments.of(ok.replace("\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"services\"}",
                        "\"resource\":\"services\""), "request.resource must be an object, not a string"),
                Arguments.of(ok.replace("\"dryRun\":false", "\"dryRun\":\"no\""), "request.dryRun"),
                Arguments.of(ok.replace("\"object\":{", "\"object\":" + "[".repeat(1500) + "]".repeat(1500) + ",\"x\":{"),
                        "nested deeper than"),
                Arguments.of(ok.replace("\"dryRun\":false", "\"dryRun\":" + "9".repeat(2000)), "a number is longer than"));
    }

    @ParameterizedTest
    @MethodSource("misshapenFields")
    void aMisshapenFieldIsNamedInJsonTermsWithoutJavaTypes(String body, String reason) throws Exception {
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, body));
        assertOneLineRejection(exchange, 400);
        assertThat(exchange.text()).contains(reason).doesNotContain("`").doesNotContain("JsonToken")
                .doesNotContain("ArrayList").doesNotContain("type String").doesNotContain("Creator")
                .doesNotContain("StreamReadConstraints");
        verify(reviewer, never()).review(anyString(), any());
    }

    @Test
    void aHugeDenialMessageIsCutAndSaysSo() throws Exception {
        AdmissionResponse denied = new AdmissionResponse();
        denied.setAllowed(false);
        denied.setStatus(new StatusBuilder().withCode(403).withMessage("spec.type: \"" + "x".repeat(1_000_000) + "\" is not served")
                .build());
        denied.setWarnings(java.util.Collections.nCopies(100, "w".repeat(5000)));
        when(reviewer.review(anyString(), any())).thenReturn(denied);
        JsonNode out = responseOf(serve(ServletExchange.post(VALIDATE, review("u1")))).get("response");
        String message = out.at("/status/message").asText();
        assertThat(message).startsWith("spec.type: \"xxx").endsWith("characters in all; shorten the values it quotes)")
                .hasSizeLessThan(AdmissionServlet.MAX_MESSAGE_CHARS + 100);
        assertThat(out.get("warnings")).hasSize(AdmissionServlet.MAX_WARNINGS);
        assertThat(out.get("warnings").get(0).asText()).hasSize(AdmissionServlet.MAX_WARNING_CHARS + 3);
    }

    @Test
    void theUidIsEchoedWhateverTheReviewerAnswers() throws Exception {
        AdmissionResponse r = allowed();
        r.setUid("something-else");
        when(reviewer.review(anyString(), any())).thenReturn(r);
        JsonNode out = responseOf(serve(ServletExchange.post(VALIDATE, review("705ab4f5-6393-11e8-b7cc-42010a800002"))));
        assertThat(out.at("/response/uid").asText()).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
    }

    @Test
    void apiVersionAndKindAreEchoed() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        JsonNode out = responseOf(serve(ServletExchange.post(VALIDATE, review("u1"))));
        assertThat(out.get("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
        assertThat(out.get("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(out.has("request")).isFalse();
    }

    @Test
    void theReviewerGetsThePathAndTheRequestWithTheObjectAsAJsonTree() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        serve(ServletExchange.post(MUTATE, review("u7")));
        ArgumentCaptor<AdmissionRequest> captor = ArgumentCaptor.forClass(AdmissionRequest.class);
        verify(reviewer).review(eq(MUTATE), captor.capture());
        AdmissionRequest request = captor.getValue();
        assertThat(request.getUid()).isEqualTo("u7");
        assertThat(request.getOperation()).isEqualTo("CREATE");
        assertThat(request.getUserInfo().getUsername()).isEqualTo("alice");
        assertThat(request.getDryRun()).isFalse();
        assertThat(request.getObject()).isInstanceOf(JsonNode.class);
        assertThat(((JsonNode) request.getObject()).at("/spec/ports/0/port").asInt()).isEqualTo(80);
        assertThat(request.getOldObject()).isNull();
        assertThat(((JsonNode) request.getOptions()).get("kind").asText()).isEqualTo("CreateOptions");
    }

    @Test
    void aPatchIsSentAsGivenWithItsType() throws Exception {
        String patch = Base64.getEncoder().encodeToString(
                "[{\"op\":\"replace\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]".getBytes(StandardCharsets.UTF_8));
        AdmissionResponse r = allowed();
        r.setPatch(patch);
        r.setPatchType("JSONPatch");
        r.setWarnings(List.of("externalTrafficPolicy set to Local"));
        when(reviewer.review(anyString(), any())).thenReturn(r);
        JsonNode out = responseOf(serve(ServletExchange.post(MUTATE, review("u1")))).get("response");
        assertThat(out.get("patchType").asText()).isEqualTo("JSONPatch");
        assertThat(new String(Base64.getDecoder().decode(out.get("patch").asText()), StandardCharsets.UTF_8))
                .contains("\"op\":\"replace\"");
        assertThat(out.get("warnings")).hasSize(1);
        assertThat(out.get("warnings").get(0).asText()).isEqualTo("externalTrafficPolicy set to Local");
    }

    @Test
    void noPatchFieldsWhenNothingChanges() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        JsonNode out = responseOf(serve(ServletExchange.post(MUTATE, review("u1")))).get("response");
        assertThat(out.has("patch")).isFalse();
        assertThat(out.has("patchType")).isFalse();
        assertThat(out.has("warnings")).isFalse();
        assertThat(out.has("status")).isFalse();
    }

    @Test
    void aDenialKeepsItsStatusAndIsCountedUnderItsWebhook() throws Exception {
        AdmissionResponse denied = new AdmissionResponse();
        denied.setAllowed(false);
        denied.setStatus(new StatusBuilder().withCode(403).withReason("Forbidden")
                .withMessage("spec.externalTrafficPolicy \"Cluster\" is not supported; use Local").build());
        when(reviewer.review(anyString(), any())).thenReturn(denied);
        JsonNode out = responseOf(serve(ServletExchange.post(VALIDATE, review("u1")))).get("response");
        assertThat(out.get("allowed").asBoolean()).isFalse();
        assertThat(out.at("/status/code").asInt()).isEqualTo(403);
        assertThat(out.at("/status/reason").asText()).isEqualTo("Forbidden");
        assertThat(out.at("/status/message").asText()).contains("externalTrafficPolicy");
        assertThat(metrics.scrape())
                .contains("juneau_webhook_denials_total{webhook=\"services.validate.juneau.loutres.me\"} 1.0");
    }

    @Test
    void aFailingReviewerIsAnErroredDenialNotA5xxNorAStackTrace() throws Exception {
        when(reviewer.review(anyString(), any())).thenThrow(new IllegalStateException("boom at line 3"));
        ServletExchange exchange = serve(ServletExchange.post(VALIDATE, review("u9")));
        JsonNode out = responseOf(exchange).get("response");
        assertThat(out.get("uid").asText()).isEqualTo("u9");
        assertThat(out.get("allowed").asBoolean()).isFalse();
        assertThat(out.at("/status/code").asInt()).isEqualTo(500);
        assertThat(out.at("/status/message").asText()).contains("u9").doesNotContain("boom").doesNotContain("Exception");
    }

    @Test
    void aReviewerAnsweringNothingIsAnErroredDenial() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(null);
        JsonNode out = responseOf(serve(ServletExchange.post(VALIDATE, review("u9")))).get("response");
        assertThat(out.get("allowed").asBoolean()).isFalse();
        assertThat(out.at("/status/code").asInt()).isEqualTo(500);
    }

    @Test
    void aPathNotServedIs404() throws Exception {
        ServletExchange exchange = serve(ServletExchange.post("/validate/pods", review("u1")));
        assertOneLineRejection(exchange, 404);
        verify(reviewer, never()).review(anyString(), any());
    }

    @Test
    void requestsAreCountedByPathAndCodeWithALatencyHistogram() throws Exception {
        when(reviewer.review(anyString(), any())).thenReturn(allowed());
        serve(ServletExchange.post(VALIDATE, review("u1")));
        serve(ServletExchange.post(VALIDATE, review("u2")));
        serve(ServletExchange.post(VALIDATE, "nope"));
        serve(new ServletExchange("GET", MUTATE, null, InputStream.nullInputStream(), -1));
        String scrape = metrics.scrape();
        assertThat(scrape)
                .contains("juneau_webhook_requests_total{code=\"200\",path=\"/validate/services\"} 2.0")
                .contains("juneau_webhook_requests_total{code=\"400\",path=\"/validate/services\"} 1.0")
                .contains("juneau_webhook_requests_total{code=\"405\",path=\"/mutate/services\"} 1.0")
                .contains("juneau_webhook_request_duration_seconds_bucket{path=\"/validate/services\",le=\"+Inf\"} 3");
    }
}
