package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.webhook.TestPki;
import me.loutres.juneau.webhook.server.WebhookConfig;
import me.loutres.juneau.webhook.server.WebhookServer;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * README.md / issue 6 item 4: every corpus fixture goes through the real webhook (embedded Jetty over HTTPS with fresh
 * certificates, AdmissionReview JSON over the network) and through {@code validate}'s in-process engine, and both
 * give the same verdicts, messages, warnings and patches. The webhook reads the same simulated cluster the in-process
 * run reads at each step (a view switched before each request), so any difference is the envelope's or the rules'.
 */
class SameVerdictIT {
    @TempDir
    static Path dir;

    private static HttpClient client;
    private static final Map<AdmissionSettings, WebhookServer> SERVERS = new HashMap<>();
    private static final Map<AdmissionSettings, Integer> PORTS = new HashMap<>();
    private static final SwitchableView VIEW = new SwitchableView();

    /** The view the webhook reads: whatever the validation run is looking at when it sends a request. */
    static final class SwitchableView implements ClusterView {
        private volatile ClusterView delegate = SnapshotClusterView.empty();

        void set(ClusterView view) {
            delegate = view;
        }

        @Override
        public Optional<AddressPool> addressPool(String name) {
            return delegate.addressPool(name);
        }

        @Override
        public Collection<AddressPool> addressPools() {
            return delegate.addressPools();
        }

        @Override
        public Optional<ExternalNetwork> externalNetwork(String name) {
            return delegate.externalNetwork(name);
        }

        @Override
        public Collection<ExternalNetwork> externalNetworks() {
            return delegate.externalNetworks();
        }

        @Override
        public Optional<ServiceLoadBalancer> serviceLoadBalancer(String namespace, String name) {
            return delegate.serviceLoadBalancer(namespace, name);
        }

        @Override
        public Collection<ServiceLoadBalancer> serviceLoadBalancers() {
            return delegate.serviceLoadBalancers();
        }

        @Override
        public Collection<ARPAdvertisement> arpAdvertisements() {
            return delegate.arpAdvertisements();
        }

        @Override
        public Optional<Node> node(String name) {
            return delegate.node(name);
        }

        @Override
        public Collection<Node> nodes() {
            return delegate.nodes();
        }

        @Override
        public java.util.List<ServiceLoadBalancer> serviceLoadBalancersWithVip(long address) {
            return delegate.serviceLoadBalancersWithVip(address);
        }

        @Override
        public java.util.List<ServiceLoadBalancer> serviceLoadBalancersOfNetwork(String network) {
            return delegate.serviceLoadBalancersOfNetwork(network);
        }

        @Override
        public java.util.List<ExternalNetwork> defaultNetworks() {
            return delegate.defaultNetworks();
        }

        @Override
        public java.util.List<ExternalNetwork> externalNetworksListingPool(String pool) {
            return delegate.externalNetworksListingPool(pool);
        }

        @Override
        public java.util.List<ARPAdvertisement> arpAdvertisementsAt(long address) {
            return delegate.arpAdvertisementsAt(address);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.PoolEntryRef> poolEntriesOverlapping(
                me.loutres.juneau.ip.AddressRange range) {
            return delegate.poolEntriesOverlapping(range);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.RangeIndex.Hit<String>> nodeInternalIpsIn(
                me.loutres.juneau.ip.AddressRange range) {
            return delegate.nodeInternalIpsIn(range);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.LearntRange> learntRangesOverlapping(
                me.loutres.juneau.ip.AddressRange range) {
            return delegate.learntRangesOverlapping(range);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.IpPoolEntryRef> ipv6PoolEntriesOverlapping(
                me.loutres.juneau.ip.IpRange range) {
            return delegate.ipv6PoolEntriesOverlapping(range);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.WideRangeIndex.Hit<String>> ipv6NodeInternalIpsIn(
                me.loutres.juneau.ip.IpRange range) {
            return delegate.ipv6NodeInternalIpsIn(range);
        }

        @Override
        public java.util.List<me.loutres.juneau.view.IpLearntRange> ipv6LearntRangesOverlapping(
                me.loutres.juneau.ip.IpRange range) {
            return delegate.ipv6LearntRangesOverlapping(range);
        }

        @Override
        public java.util.List<String> names(NamedKind kind) {
            return delegate.names(kind);
        }

        @Override
        public Optional<BGPPeer> bgpPeer(String name) {
            return delegate.bgpPeer(name);
        }

        @Override
        public Collection<BGPPeer> bgpPeersWithAddress(String peerAddress) {
            return delegate.bgpPeersWithAddress(peerAddress);
        }

        @Override
        public Collection<BGPPeer> bgpPeersNamingBfdProfile(String profile) {
            return delegate.bgpPeersNamingBfdProfile(profile);
        }

        @Override
        public Optional<BFDProfile> bfdProfile(String name) {
            return delegate.bfdProfile(name);
        }

        @Override
        public Collection<ExternalNetwork> externalNetworksNamingPeer(String peer) {
            return delegate.externalNetworksNamingPeer(peer);
        }

        @Override
        public Optional<java.util.Set<String>> systemSecretKeys(String name) {
            return delegate.systemSecretKeys(name);
        }

        @Override
        public Optional<java.util.Map<String, String>> namespaceLabels(String name) {
            return delegate.namespaceLabels(name);
        }

        @Override
        public java.util.Optional<String> systemSecretPasswordProblem(String name, String key) {
            return delegate.systemSecretPasswordProblem(name, key);
        }
    }

    @BeforeAll
    static void pki() throws Exception {
        // the webhook's own test certificates: a serving pair for localhost in dir/tls.crt and dir/tls.key
        TestPki pki = new TestPki(dir);
        pki.install();
        client = HttpClient.newBuilder().sslContext(pki.clientContext()).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        SERVERS.values().forEach(WebhookServer::stop);
    }

    /** One server per distinct webhook configuration (a fixture may configure reserved CIDRs). */
    private static synchronized int port(AdmissionSettings settings) throws Exception {
        Integer port = PORTS.get(settings);
        if (port == null) {
            WebhookServer server = new WebhookServer();
            port = server.start(WebhookConfig.builder(dir.resolve("tls.crt"), dir.resolve("tls.key"))
                    .bindAddress("127.0.0.1").port(0).settings(settings)
                    .viewSource(new ClusterViewSource.Fixed(VIEW)).build());
            SERVERS.put(settings, server);
            PORTS.put(settings, port);
        }
        return port;
    }

    static Stream<String> fixtures() throws IOException {
        // 19 and 20 are unreadable input: validate stops at reading (exit 2) and nothing reaches a webhook
        return ValidateGoldenTest.caseNames().stream().filter(c -> !c.startsWith("19-") && !c.startsWith("20-"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void sameVerdictThroughTheWebhookAndThroughValidate(String fixture) throws Exception {
        List<String> args = ValidateGoldenTest.args(fixture, "text");
        String user = option(args, "--as").stream().findFirst().orElse("ci");
        List<String> controllers = option(args, "--controller-username");
        // a fixture run with --manage-unclassed is compared with a webhook started with it
        AdmissionSettings settings = new AdmissionSettings(controllers.isEmpty() ? null : Set.copyOf(controllers),
                option(args, "--reserved-cidr"), null,
                me.loutres.juneau.policy.ManagedServices.of(args.contains("--manage-unclassed")));
        List<ManifestObject> objects = new ManifestReader(List.of(), Kustomize.fromEnvironment(), System.in)
                .read(List.of(ValidateGoldenTest.CASES.resolve(fixture)), List.of()).objects();
        SnapshotClusterView state = ClusterStateFiles.load(Path.of(ValidateGoldenTest.state(fixture)));
        int port = port(settings);

        List<Outcome> local = new Validation(Validation.inProcess(new AdmissionEngine(settings)), state, user,
                settings.managed()).run(objects);
        List<String> sent = new ArrayList<>();
        List<String> echoed = new ArrayList<>();
        List<Outcome> remote = new Validation((endpoint, request, view) -> {
            VIEW.set(view);
            AdmissionResponse response = post(port, endpoint.path(), request);
            sent.add(request.getUid());
            echoed.add(response.getUid());
            return response;
        }, state, user, settings.managed()).run(objects);

        assertThat(remote).isEqualTo(local);
        assertThat(local).isNotEmpty();
        assertThat(echoed).isEqualTo(sent);
    }

    private static AdmissionResponse post(int port, String path, AdmissionRequest request) {
        try {
            ObjectNode review = KubeObjects.mapper().createObjectNode();
            review.put("apiVersion", "admission.k8s.io/v1");
            review.put("kind", "AdmissionReview");
            review.set("request", KubeObjects.mapper().valueToTree(request));
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port + path))
                    .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(KubeObjects.mapper().writeValueAsString(review))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("HTTP status of %s: %s", path, response.body()).isEqualTo(200);
            AdmissionReview answer = KubeObjects.mapper().readValue(response.body(), AdmissionReview.class);
            assertThat(answer.getApiVersion()).isEqualTo("admission.k8s.io/v1");
            return answer.getResponse();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> option(List<String> args, String name) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < args.size() - 1; i++) {
            if (args.get(i).equals(name)) {
                values.add(args.get(i + 1));
            }
        }
        return values;
    }
}
