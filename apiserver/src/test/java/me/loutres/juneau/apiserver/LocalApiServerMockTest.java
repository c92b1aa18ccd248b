package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LocalApiServerMockTest {
    private LocalApiServer server;
    private KubernetesClient admin;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final List<AdmissionRequest> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        server = LocalApiServer.start(0);
        admin = server.adminClient();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** A webhook that records calls and answers with the given function. */
    private void webhook(Function<AdmissionRequest, AdmissionResponse> answer) {
        server.useWebhook((path, review) -> {
            calls.add(path);
            requests.add(review.getRequest());
            AdmissionResponse response = answer.apply(review.getRequest());
            response.setUid(review.getRequest().getUid());
            AdmissionReview out = new AdmissionReview();
            out.setApiVersion("admission.k8s.io/v1");
            out.setKind("AdmissionReview");
            out.setResponse(response);
            return out;
        });
    }

    private static AdmissionResponse allow() {
        AdmissionResponse r = new AdmissionResponse();
        r.setAllowed(true);
        return r;
    }

    private static AdmissionResponse deny(String message) {
        AdmissionResponse r = new AdmissionResponse();
        r.setAllowed(false);
        r.setStatus(new StatusBuilder().withCode(403).withReason("Forbidden").withMessage(message).build());
        return r;
    }

    private static Service service(String name, boolean managed) {
        return new ServiceBuilder().withNewMetadata().withName(name).withNamespace("default")
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "public").endMetadata()
                .withNewSpec().withType("LoadBalancer")
                .withLoadBalancerClass(managed ? JuneauConstants.LOAD_BALANCER_CLASS : "other.example/lb")
                .withExternalTrafficPolicy("Cluster").addNewPort().withPort(80).withProtocol("TCP").endPort()
                .endSpec().build();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = server.httpClient().send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                        .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return new ObjectMapper().readTree(r.body());
    }

    @Test
    void servesTheDiscoveryDocumentsKubectlReads() throws Exception {
        assertThat(get("/api").path("versions").toString()).contains("v1");
        APIGroupList groups = Serialization.unmarshal(get("/apis").toString(), APIGroupList.class);
        assertThat(groups.getGroups()).extracting(g -> g.getName())
                .contains("discovery.k8s.io", "coordination.k8s.io", JuneauConstants.GROUP);
        APIResourceList ours = Serialization.unmarshal(get("/apis/juneau.loutres.me/v1alpha1").toString(),
                APIResourceList.class);
        assertThat(ours.getResources()).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("serviceloadbalancers");
            assertThat(r.getShortNames()).containsExactly("slb");
            assertThat(r.getSingularName()).isEqualTo("serviceloadbalancer");
            assertThat(r.getNamespaced()).isTrue();
        });
        assertThat(ours.getResources()).extracting(r -> r.getName())
                .contains("addresspools", "addresspools/status", "externalnetworks", "serviceloadbalancers/status",
                        "arpadvertisements", "bgppeers", "bfdprofiles", "bgpsessions", "bgpsessions/status");
        assertThat(get("/apis/discovery.k8s.io/v1").path("resources").toString()).contains("endpointslices");
        assertThat(get("/apis/coordination.k8s.io/v1").path("resources").toString()).contains("leases");
        assertThat(get("/api/v1").path("resources").toString()).contains("\"services\"", "\"nodes\"");
        assertThat(get("/version").path("gitVersion").asText()).startsWith("v1.");
    }

    @Test
    void aDeniedWriteIsAForbiddenStatusAndNothingIsStored() {
        webhook(req -> req.getOperation().equals("CREATE") && calls.get(calls.size() - 1).startsWith("/validate")
                ? deny("metadata.name: no thanks") : allow());
        assertThatThrownBy(() -> admin.services().inNamespace("default").resource(service("web", true)).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                    assertThat(e.getStatus().getMessage()).isEqualTo(
                            "admission webhook \"services.validate.juneau.loutres.me\" denied the request: metadata.name: no thanks");
                });
        assertThat(admin.services().inNamespace("default").withName("web").get()).isNull();
        assertThat(calls).containsExactly("/mutate/services", "/validate/services");
    }

    @Test
    void aMutationPatchIsAppliedBeforeStoring() {
        String patch = "[{\"op\":\"replace\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]";
        webhook(req -> {
            AdmissionResponse r = allow();
            if (calls.get(calls.size() - 1).startsWith("/mutate")) {
                r.setPatchType("JSONPatch");
                r.setPatch(Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
            }
            return r;
        });
        admin.services().inNamespace("default").resource(service("web", true)).create();
        assertThat(admin.services().inNamespace("default").withName("web").get().getSpec().getExternalTrafficPolicy())
                .isEqualTo("Local");
        // the validating webhook sees the mutated object, as on a real API server
        assertThat(requests.get(1).getObject().toString()).contains("Local");
    }

    @Test
    void unmanagedServicesNeverReachTheWebhook() {
        webhook(req -> deny("should not be called"));
        Service plain = service("other", false);
        plain.getMetadata().setAnnotations(null); // with a Juneau annotation it would reach validation (a warning)
        admin.services().inNamespace("default").resource(plain).create();
        assertThat(calls).isEmpty();
        assertThat(admin.services().inNamespace("default").withName("other").get()).isNotNull();
    }

    @Test
    void dryRunIsAdmittedButNotStored() {
        webhook(req -> allow());
        Service dry = admin.services().inNamespace("default").resource(service("dry", true)).dryRun().create();
        assertThat(dry.getMetadata().getName()).isEqualTo("dry");
        assertThat(requests).allSatisfy(r -> assertThat(r.getDryRun()).isTrue());
        assertThat(admin.services().inNamespace("default").withName("dry").get()).isNull();
    }

    @Test
    void theBearerTokenDecidesTheUserTheWebhookSees() {
        webhook(req -> allow());
        me.loutres.juneau.api.v1alpha1.ARPAdvertisement arp = new me.loutres.juneau.api.v1alpha1.ARPAdvertisement();
        arp.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("slb-default-token").build());
        arp.setSpec(new me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec("l2", "192.0.2.10", "node-a"));
        try (KubernetesClient controller = server.client(Identities.CONTROLLER_TOKEN)) {
            controller.resources(me.loutres.juneau.api.v1alpha1.ARPAdvertisement.class).resource(arp).create();
        }
        admin.resources(me.loutres.juneau.api.v1alpha1.ARPAdvertisement.class).withName("slb-default-token")
                .edit(a -> {
                    a.getMetadata().setLabels(Map.of("edited", "by-hand"));
                    return a;
                });
        assertThat(requests).extracting(r -> r.getUserInfo().getUsername())
                .containsExactly(JuneauConstants.DEFAULT_CONTROLLER_USERNAME, Identities.ADMIN_USERNAME);
        assertThat(requests.get(1).getOperation()).isEqualTo("UPDATE");
        assertThat(requests.get(1).getOldObject()).isNotNull();
        assertThat(calls).containsOnly("/validate/arpadvertisements");
    }

    @Test
    void theControllersOwnServiceLoadBalancerWritesSkipTheWebhookAndAHandEditDoesNot() {
        webhook(req -> allow());
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("web")
                .withNamespace("default").build());
        slb.setSpec(new ServiceLoadBalancerSpec("web", "public", null));
        try (KubernetesClient controller = server.client(Identities.CONTROLLER_TOKEN)) {
            ServiceLoadBalancer created = controller.resources(ServiceLoadBalancer.class).inNamespace("default")
                    .resource(slb).create();
            created.setStatus(new me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus());
            created.getStatus().setPhase("Pending");
            controller.resources(ServiceLoadBalancer.class).inNamespace("default").resource(created).updateStatus();
        }
        assertThat(calls).as("the matchCondition keeps the controller's writes away").isEmpty();
        admin.resources(ServiceLoadBalancer.class).inNamespace("default").withName("web")
                .edit(s -> {
                    s.getMetadata().setLabels(Map.of("edited", "by-hand"));
                    return s;
                });
        assertThat(requests).extracting(r -> r.getUserInfo().getUsername()).containsExactly(Identities.ADMIN_USERNAME);
        assertThat(calls).containsExactly("/validate/serviceloadbalancers");
    }

    @Test
    void aMergePatchIsReviewedAsTheObjectItWouldProduce() {
        webhook(req -> allow());
        admin.services().inNamespace("default").resource(service("web", true)).create();
        requests.clear();
        admin.services().inNamespace("default").withName("web")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"juneau.loutres.me/load-balancer-requested-ip\":\"192.0.2.7\"}}}");
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1).getObject().toString()).contains("192.0.2.7");
        assertThat(requests.get(1).getOldObject().toString()).doesNotContain("192.0.2.7");
    }

    @Test
    void deletesAreReviewedWithTheStoredObjectAndDeniedDeletesKeepIt() {
        webhook(req -> req.getOperation().equals("DELETE") ? deny("ExternalNetwork public is in use") : allow());
        admin.resources(me.loutres.juneau.api.v1alpha1.ExternalNetwork.class).resource(network()).create();
        assertThatThrownBy(() -> admin.resources(me.loutres.juneau.api.v1alpha1.ExternalNetwork.class)
                .withName("public").delete()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("denied the request: ExternalNetwork public is in use");
        assertThat(admin.resources(me.loutres.juneau.api.v1alpha1.ExternalNetwork.class).withName("public").get())
                .isNotNull();
        assertThat(requests.get(requests.size() - 1).getOldObject()).isNotNull();
        assertThat(requests.get(requests.size() - 1).getObject()).isNull();
    }

    @Test
    void aPatchNamingNoResourceVersionIsRetriedPastAConcurrentWriteAndOneNamingItIsAConflict() {
        webhook(req -> allow());
        admin.services().inNamespace("default").resource(service("racing", true)).create();
        // another writer commits while the patch is in admission, i.e. between its read and its commit
        java.util.concurrent.atomic.AtomicBoolean interfere = new java.util.concurrent.atomic.AtomicBoolean(true);
        webhook(req -> {
            if (req.getOperation().equals("UPDATE") && calls.get(calls.size() - 1).startsWith("/validate")
                    && interfere.getAndSet(false)) {
                admin.services().inNamespace("default").withName("racing").patch(
                        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"other\":\"" + System.nanoTime() + "\"}}}");
            }
            return allow();
        });
        Service patched = admin.services().inNamespace("default").withName("racing").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"mine\":\"1\"}}}");
        assertThat(patched.getMetadata().getLabels()).containsEntry("mine", "1").containsKey("other");

        // the same race for a patch that names the version it was based on: kube-apiserver's Conflict
        String rv = admin.services().inNamespace("default").withName("racing").get().getMetadata()
                .getResourceVersion();
        interfere.set(true);
        assertThatThrownBy(() -> admin.services().inNamespace("default").withName("racing").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"metadata\":{\"resourceVersion\":\"" + rv + "\",\"labels\":{\"mine\":\"2\"}}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void anUnreachableWebhookFailsTheWriteLikeFailurePolicyFail() {
        server.useWebhook((path, review) -> {
            throw new IOException("connection refused");
        });
        assertThatThrownBy(() -> admin.services().inNamespace("default").resource(service("web", true)).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(500);
                    assertThat(e.getStatus().getMessage()).contains("failed calling webhook",
                            "services.mutate.juneau.loutres.me", "connection refused");
                });
        assertThat(admin.services().inNamespace("default").withName("web").get()).isNull();
    }

    @Test
    void writesKubeconfigReadableOnlyByItsOwner(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // JUnit's directory, deleted after the test: the file holds the admin token
        java.nio.file.Path file = dir.resolve("kubeconfig");
        server.writeKubeconfig(file);
        String text = java.nio.file.Files.readString(file);
        assertThat(text).contains("server: " + server.url(), "token: " + Identities.ADMIN_TOKEN);
        assertThat(java.nio.file.Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body, String accept)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Bearer " + Identities.ADMIN_TOKEN);
        if (accept != null) {
            b.header("Accept", accept);
        }
        if (body != null) {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return server.httpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private void createSlb(String name) {
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name)
                .withNamespace("default").build());
        slb.setSpec(new ServiceLoadBalancerSpec(name, "public", null));
        admin.resources(ServiceLoadBalancer.class).inNamespace("default").resource(slb).create();
    }

    @Test
    void aStatusPatchSentTheWayKubectlSendsItIsStored() throws Exception {
        createSlb("web");
        HttpResponse<String> r = send("PATCH",
                "/apis/juneau.loutres.me/v1alpha1/namespaces/default/serviceloadbalancers/web/status"
                        + "?fieldManager=kubectl-patch&fieldValidation=Strict",
                "application/merge-patch+json", "{\"status\":{\"vip\":\"192.0.2.1\",\"phase\":\"Ready\"}}", null);
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 202);
        ServiceLoadBalancer stored = admin.resources(ServiceLoadBalancer.class).inNamespace("default").withName("web")
                .get();
        assertThat(stored.getStatus().getVip()).isEqualTo("192.0.2.1");
        assertThat(stored.getStatus().getPhase()).isEqualTo("Ready");
    }

    @Test
    void kubectlGetReceivesATableWithThePrinterColumnsOfTheCrd() throws Exception {
        createSlb("web");
        admin.resources(ServiceLoadBalancer.class).inNamespace("default").withName("web").editStatus(s -> {
            var st = new me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus();
            st.setVip("192.0.2.9");
            st.setPhase("Allocated");
            st.setConditions(List.of(new io.fabric8.kubernetes.api.model.ConditionBuilder().withType("Available")
                    .withStatus("True").build(), new io.fabric8.kubernetes.api.model.ConditionBuilder()
                    .withType("Announced").withStatus("False").build()));
            s.setStatus(st);
            return s;
        });
        HttpResponse<String> r = send("GET", "/apis/juneau.loutres.me/v1alpha1/namespaces/default/serviceloadbalancers",
                null, null, "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");
        JsonNode table = new ObjectMapper().readTree(r.body());
        assertThat(table.path("kind").asText()).isEqualTo("Table");
        List<String> columns = new java.util.ArrayList<>();
        table.path("columnDefinitions").forEach(c -> columns.add(c.path("name").asText()));
        assertThat(columns).containsExactly("Name", "Service", "ExternalNetwork", "VIP", "Phase", "Announced", "Nodes",
                "ARPNode", "Age");
        JsonNode cells = table.path("rows").get(0).path("cells");
        assertThat(cells.get(0).asText()).isEqualTo("web");
        assertThat(cells.get(3).asText()).isEqualTo("192.0.2.9");
        assertThat(cells.get(4).asText()).isEqualTo("Allocated");
        assertThat(cells.get(5).asText()).as("the Announced condition's status, picked by type").isEqualTo("False");
        assertThat(table.path("rows").get(0).path("object").path("metadata").path("namespace").asText())
                .isEqualTo("default");
    }

    @Test
    void servicesShowTheirExternalIpOrPendingLikeARealCluster() throws Exception {
        webhook(req -> allow());
        admin.services().inNamespace("default").resource(service("web", true)).create();
        HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/services/web", null, null,
                "application/json;as=Table;v=v1;g=meta.k8s.io");
        JsonNode cells = new ObjectMapper().readTree(r.body()).path("rows").get(0).path("cells");
        assertThat(cells.get(3).asText()).isEqualTo("<pending>");
        // a LoadBalancer Service gets a node port allocated (allocateLoadBalancerNodePorts defaults to true)
        assertThat(cells.get(4).asText()).matches("80:3[0-9]{4}/TCP");
    }

    private static me.loutres.juneau.api.v1alpha1.ExternalNetwork network() {
        var n = new me.loutres.juneau.api.v1alpha1.ExternalNetwork();
        n.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("public").build());
        n.setSpec(new me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec("arp", List.of("pool-a")));
        return n;
    }
}
