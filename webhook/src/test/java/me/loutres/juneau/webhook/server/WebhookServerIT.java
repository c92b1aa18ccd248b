package me.loutres.juneau.webhook.server;

import static me.loutres.juneau.webhook.Reviews.ALICE;
import static me.loutres.juneau.webhook.Reviews.CONTROLLER;
import static me.loutres.juneau.webhook.Reviews.GC;
import static me.loutres.juneau.webhook.Reviews.JSON;
import static me.loutres.juneau.webhook.Reviews.NAMESPACE_CONTROLLER;
import static me.loutres.juneau.webhook.Reviews.managedService;
import static me.loutres.juneau.webhook.Reviews.serviceLoadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.stream.Stream;
import javax.net.ssl.SSLParameters;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.RawHttps;
import me.loutres.juneau.webhook.Reviews;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real embedded server over HTTPS with freshly generated certificates, the real rules and an offline cluster
 * state, reached over the network by java.net.http.HttpClient (raw TLS sockets only where a library would hide the
 * bytes under test).
 */
class WebhookServerIT {
    @TempDir
    static Path dir;

    private static TestPki pki;
    private static WebhookServer server;
    private static int port;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        pki = new TestPki(dir);
        pki.install();
        Path state = dir.resolve("cluster-state.yaml");
        try (InputStream in = WebhookServerIT.class.getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state);
        }
        server = new WebhookServer();
        port = server.start(WebhookConfig.builder(pki.certFile, pki.keyFile).bindAddress("127.0.0.1").port(0)
                .viewSource(new ClusterViewSource.StateFile(state))
                .settings(new AdmissionSettings(java.util.Set.of(CONTROLLER), java.util.List.of("10.96.0.0/12")))
                .build());
        client = HttpClient.newBuilder().sslContext(pki.clientContext()).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private static URI uri(String path) {
        return URI.create("https://localhost:" + port + path);
    }

    private static HttpResponse<String> post(String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts a review and returns its {@code response}, checking the envelope on the way. */
    private static JsonNode review(String path, Reviews.Builder review) throws Exception {
        HttpResponse<String> r = post(path, "application/json", review.json());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode out = JSON.readTree(r.body());
        assertThat(out.get("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
        assertThat(out.get("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(out.at("/response/uid").asText()).isEqualTo(review.uid);
        return out.get("response");
    }

    private static void assertDenied(JsonNode response, String... messageParts) {
        assertThat(response.get("allowed").asBoolean()).as(response.toString()).isFalse();
        assertThat(response.at("/status/code").asInt()).isEqualTo(403);
        assertThat(response.at("/status/reason").asText()).isEqualTo("Forbidden");
        assertThat(response.at("/status/message").asText()).contains(messageParts);
        assertThat(response.has("patch")).isFalse();
    }

    private static void assertAllowed(JsonNode response) {
        assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
    }

    private static String patchOf(JsonNode response) {
        assertThat(response.get("patchType").asText()).isEqualTo("JSONPatch");
        return new String(Base64.getDecoder().decode(response.get("patch").asText()), StandardCharsets.UTF_8);
    }

    // --- verdicts for each kind

    @Test
    void aGoodServiceIsAllowedOverTls12Or13AndHttp11() throws Exception {
        Reviews.Builder review = Reviews.service("CREATE").object(managedService("web", "public", "Local", null));
        HttpResponse<String> r = post("/validate/services", "application/json", review.json());
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(r.sslSession()).hasValueSatisfying(s -> assertThat(s.getProtocol()).isIn("TLSv1.3", "TLSv1.2"));
        assertAllowed(JSON.readTree(r.body()).get("response"));
    }

    @Test
    void aServiceWithSeveralProblemsIsDeniedWithAllOfThem() throws Exception {
        JsonNode response = review("/validate/services", Reviews.service("CREATE")
                .object(managedService("web", null, "Cluster", null)));
        assertDenied(response, "externalTrafficPolicy", "load-balancer-external-network", "; ");
    }

    @Test
    void aServiceNamingAMissingNetworkIsDenied() throws Exception {
        assertDenied(review("/validate/services", Reviews.service("CREATE")
                .object(managedService("web", "nowhere", "Local", null))), "nowhere");
    }

    @Test
    void aServiceRequestingAnotherServicesVipIsDeniedNamingIt() throws Exception {
        assertDenied(review("/validate/services", Reviews.service("CREATE").object(managedService("web", "public", "Local",
                "\"juneau.loutres.me/load-balancer-requested-ip\":\"203.0.113.5\""))), "203.0.113.5", "existing");
    }

    @Test
    void loadBalancerIpIsAllowedWithAWarning() throws Exception {
        String service = managedService("web", "public", "Local", null)
                .replace("\"selector\"", "\"loadBalancerIP\":\"203.0.113.7\",\"selector\"");
        JsonNode response = review("/validate/services", Reviews.service("CREATE").object(service));
        assertAllowed(response);
        assertThat(response.get("warnings").toString()).contains("load-balancer-requested-ip");
    }

    @Test
    void mutationSetsLocalWithAWarningAndTrimsAnnotations() throws Exception {
        JsonNode response = review("/mutate/services", Reviews.service("CREATE").object(managedService("web",
                "  public ", "Cluster", null)));
        assertAllowed(response);
        String patch = patchOf(response);
        assertThat(patch).contains("/spec/externalTrafficPolicy").contains("\"Local\"").contains("\"public\"");
        assertThat(response.get("warnings").toString()).contains("Local");
    }

    @Test
    void mutationWithNothingToChangeSendsNoPatch() throws Exception {
        JsonNode response = review("/mutate/services", Reviews.service("CREATE")
                .object(managedService("web", "public", "Local", null)));
        assertAllowed(response);
        assertThat(response.has("patch")).isFalse();
        assertThat(response.has("patchType")).isFalse();
    }

    @Test
    void unmanagedServicesPassUntouched() throws Exception {
        String clusterIp = managedService("db", null, "Cluster", null).replace("\"type\":\"LoadBalancer\"", "\"type\":\"ClusterIP\"");
        JsonNode mutated = review("/mutate/services", Reviews.service("CREATE").object(clusterIp));
        assertAllowed(mutated);
        assertThat(mutated.has("patch")).isFalse();
        assertAllowed(review("/validate/services", Reviews.service("CREATE").object(clusterIp)));
    }

    @Test
    void anOverlappingAddressPoolIsDeniedNamingTheOtherPool() throws Exception {
        String pool = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-new"},
                 "spec":{"advertiseMode":"bgp","addresses":["203.0.113.8/29"]}}""";
        assertDenied(review("/validate/addresspools", Reviews.custom("AddressPool", "addresspools", "CREATE")
                .object(pool)), "pool-bgp");
    }

    @Test
    void anAddressPoolOverAReservedCidrIsDenied() throws Exception {
        String pool = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-svc"},
                 "spec":{"advertiseMode":"bgp","addresses":["10.100.0.0/24"]}}""";
        assertDenied(review("/validate/addresspools", Reviews.custom("AddressPool", "addresspools", "CREATE")
                .object(pool)), "10.96.0.0/12");
    }

    @Test
    void aDisjointAddressPoolIsAllowed() throws Exception {
        String pool = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-new"},
                 "spec":{"advertiseMode":"bgp","addresses":["203.0.113.64/28"]}}""";
        assertAllowed(review("/validate/addresspools", Reviews.custom("AddressPool", "addresspools", "CREATE").object(pool)));
    }

    @Test
    void anExternalNetworkListingAMissingPoolIsDenied() throws Exception {
        String network = """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"dmz"},
                 "spec":{"type":"bgp","addressPools":["pool-missing"]}}""";
        assertDenied(review("/validate/externalnetworks", Reviews.custom("ExternalNetwork", "externalnetworks", "CREATE")
                .object(network)), "pool-missing");
    }

    @Test
    void aPathKindMismatchIsADenialNotACrash() throws Exception {
        assertDenied(review("/validate/addresspools", Reviews.service("CREATE")
                .object(managedService("web", "public", "Local", null))), "/validate/addresspools");
    }

    // --- hand-edit blocking (docs/admission.md) over HTTP

    static Stream<Arguments> controllerOnlyWrites() {
        String slb = serviceLoadBalancer("web", "\"serviceloadbalancer.juneau.loutres.me/allocation-claim\"", "203.0.113.6");
        String changed = slb.replace("\"externalNetwork\":\"public\"", "\"externalNetwork\":\"lan\"");
        String statusChanged = slb.replace("\"phase\":\"Ready\"", "\"phase\":\"Degraded\"");
        String noFinalizer = serviceLoadBalancer("web", "", "203.0.113.6");
        String slbPath = "/validate/serviceloadbalancers";
        return Stream.of(
                Arguments.of("alice creates", slbPath, slbReview("CREATE", ALICE).object(slb), false),
                Arguments.of("alice updates", slbPath, slbReview("UPDATE", ALICE).object(changed).oldObject(slb), false),
                Arguments.of("alice deletes", slbPath, slbReview("DELETE", ALICE).oldObject(slb), false),
                Arguments.of("alice writes status", slbPath, slbReview("UPDATE", ALICE).subResource("status")
                        .object(statusChanged).oldObject(slb), false),
                Arguments.of("the controller creates", slbPath, slbReview("CREATE", CONTROLLER).object(slb), true),
                Arguments.of("the controller writes status", slbPath, slbReview("UPDATE", CONTROLLER).subResource("status")
                        .object(statusChanged).oldObject(slb), true),
                Arguments.of("the controller deletes", slbPath, slbReview("DELETE", CONTROLLER).oldObject(slb), true),
                Arguments.of("the garbage collector deletes", slbPath, slbReview("DELETE", GC).oldObject(slb), true),
                Arguments.of("the namespace controller deletes", slbPath,
                        slbReview("DELETE", NAMESPACE_CONTROLLER).oldObject(slb), true),
                Arguments.of("alice only removes the finalizer", slbPath,
                        slbReview("UPDATE", ALICE).object(noFinalizer).oldObject(slb), true),
                Arguments.of("alice creates an ARPAdvertisement", "/validate/arpadvertisements",
                        Reviews.custom("ARPAdvertisement", "arpadvertisements", "CREATE").object(arp("198.51.100.12", "node-a")), false),
                Arguments.of("the garbage collector deletes an ARPAdvertisement", "/validate/arpadvertisements",
                        Reviews.custom("ARPAdvertisement", "arpadvertisements", "DELETE").user(GC)
                                .oldObject(arp("198.51.100.12", "node-a")), true));
    }

    private static Reviews.Builder slbReview(String operation, String user) {
        return Reviews.custom("ServiceLoadBalancer", "serviceloadbalancers", operation).user(user);
    }

    private static String arp(String address, String node) {
        return """
                {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ARPAdvertisement",
                 "metadata":{"name":"slb-default-web","labels":{"juneau.loutres.me/service-namespace":"default",
                   "juneau.loutres.me/service-name":"web"}},
                 "spec":{"externalNetwork":"lan","address":"%s","nodeName":"%s"}}""".formatted(address, node);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controllerOnlyWrites")
    void onlyTheControllerWritesServiceLoadBalancersAndArpAdvertisements(String what, String path, Reviews.Builder review,
                                                                         boolean allowed) throws Exception {
        JsonNode response = review(path, review);
        if (allowed) {
            assertAllowed(response);
        } else {
            assertDenied(response, "is managed by Juneau", "(request by \"alice\")");
        }
    }

    @Test
    void theHandEditMessageNamesTheServiceToEdit() throws Exception {
        JsonNode response = review("/validate/serviceloadbalancers", slbReview("UPDATE", ALICE)
                .object(serviceLoadBalancer("web", "", "203.0.113.6").replace("public", "lan"))
                .oldObject(serviceLoadBalancer("web", "", "203.0.113.6")));
        assertThat(response.at("/status/message").asText()).isEqualTo(
                "ServiceLoadBalancer default/web is managed by Juneau; edit Service default/web instead (request by \"alice\")");
    }

    @Test
    void theControllersArpAdvertisementOutsideItsPoolsIsDenied() throws Exception {
        assertDenied(review("/validate/arpadvertisements", Reviews.custom("ARPAdvertisement", "arpadvertisements", "CREATE")
                .user(CONTROLLER).object(arp("198.51.100.99", "node-a"))), "198.51.100.99");
    }

    @Test
    void theControllersArpAdvertisementOnAnUnknownNodeIsDenied() throws Exception {
        assertDenied(review("/validate/arpadvertisements", Reviews.custom("ARPAdvertisement", "arpadvertisements", "CREATE")
                .user(CONTROLLER).object(arp("198.51.100.12", "node-z"))), "node-z");
    }

    // --- bad input over the network: the status code and one line of text, never a 5xx or a stack trace

    private static void assertOneLine(HttpResponse<String> r, int status) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("text/plain"));
        assertThat(r.body().strip()).doesNotContain("\n").doesNotContain("Exception").doesNotContain("<html");
    }

    @Test
    void getIs405() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/validate/services")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertOneLine(r, 405);
        assertThat(r.headers().firstValue("allow")).hasValue("POST");
    }

    @Test
    void yamlIs415() throws Exception {
        assertOneLine(post("/validate/services", "application/yaml", "apiVersion: admission.k8s.io/v1"), 415);
    }

    @Test
    void unparsableJsonIs400() throws Exception {
        assertOneLine(post("/validate/services", "application/json", "{\"apiVersion\":"), 400);
    }

    @Test
    void v1beta1Is400() throws Exception {
        String json = Reviews.service("CREATE").object(managedService("web", "public", "Local", null)).json()
                .replace("admission.k8s.io/v1\"", "admission.k8s.io/v1beta1\"");
        HttpResponse<String> r = post("/validate/services", "application/json", json);
        assertOneLine(r, 400);
        assertThat(r.body()).contains("v1beta1");
    }

    @Test
    void aMissingUidIs400() throws Exception {
        String json = Reviews.service("CREATE").object(managedService("web", "public", "Local", null)).json()
                .replaceFirst("\"uid\":\"[^\"]+\",", "");
        HttpResponse<String> r = post("/validate/services", "application/json", json);
        assertOneLine(r, 400);
        assertThat(r.body()).contains("request.uid");
    }

    @Test
    void aClientThatSendsAWhole4MiBBodyBeforeReadingStillReadsIts413() throws Exception {
        // as kube-apiserver and curl do: the whole body goes out, then the answer is read; a server that answers and
        // closes with the body unread resets the connection, and the client sees that instead of the 413
        byte[] body = new byte[4 * 1024 * 1024];
        java.util.Arrays.fill(body, (byte) ' ');
        try (RawHttps raw = new RawHttps(pki.clientContext(), port)) {
            raw.send(RawHttps.head("POST", "/validate/services", "application/json", body.length));
            raw.send(body);
            RawHttps.Response r = raw.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.body()).startsWith("the request body is larger than 3 MiB");
        }
    }

    @Test
    void anUndeclaredBodyOver3MiBIs413WhileReading() throws Exception {
        int cap = 3 * 1024 * 1024;
        try (RawHttps raw = new RawHttps(pki.clientContext(), port)) {
            raw.send(RawHttps.head("POST", "/validate/services", "application/json", -1));
            // one chunk of exactly cap + 1 bytes, and no final chunk: only counting can stop this
            byte[] chunk = new byte[cap + 1];
            java.util.Arrays.fill(chunk, (byte) ' ');
            raw.send(Integer.toHexString(chunk.length) + "\r\n");
            raw.send(chunk);
            raw.send("\r\n");
            RawHttps.Response r = raw.read();
            assertThat(r.status()).isEqualTo(413);
            assertThat(r.body()).startsWith("the request body is larger than 3 MiB");
        }
    }

    @Test
    void anUnknownPathIs404WithoutAStackTrace() throws Exception {
        HttpResponse<String> r = post("/validate/pods", "application/json", "{}");
        assertThat(r.statusCode()).isEqualTo(404);
        assertOneLine(r, 404);
        assertThat(r.body()).contains("/validate/services");
    }

    // --- operations endpoints

    @Test
    void probesAndMetrics() throws Exception {
        HttpResponse<String> health = client.send(HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        HttpResponse<String> ready = client.send(HttpRequest.newBuilder(uri("/readyz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        review("/validate/services", Reviews.service("CREATE").object(managedService("web", null, "Local", null)));
        HttpResponse<String> metrics = client.send(HttpRequest.newBuilder(uri("/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("juneau_webhook_requests_total{code=\"200\",path=\"/validate/services\"}")
                .contains("juneau_webhook_denials_total{webhook=\"services.validate.juneau.loutres.me\"}")
                .contains("juneau_webhook_request_duration_seconds_bucket{path=\"/validate/services\"");
    }

    @Test
    void aTls12OnlyClientIsServed() throws Exception {
        SSLParameters tls12 = new SSLParameters();
        tls12.setProtocols(new String[] {"TLSv1.2"});
        HttpClient old = HttpClient.newBuilder().sslContext(pki.clientContext()).sslParameters(tls12).build();
        HttpResponse<String> r = old.send(HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.sslSession()).hasValueSatisfying(s -> assertThat(s.getProtocol()).isEqualTo("TLSv1.2"));
    }
}
