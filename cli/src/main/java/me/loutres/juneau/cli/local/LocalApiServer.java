package me.loutres.juneau.cli.local;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * An embedded Kubernetes API server for one machine: fabric8's mock server in CRUD mode with Juneau's CRDs,
 * the discovery documents kubectl needs, and the admission webhook called before anything is stored. There is
 * no real kube-apiserver on these machines; this is the closest honest stand-in (no scheduler, no garbage
 * collector, no server-side apply).
 */
public final class LocalApiServer implements AutoCloseable {
    private final KubernetesMockServer server;
    private final MockWebServer web;
    private final LocalApiDispatcher dispatcher;
    private final Discovery discovery = new Discovery();
    private final KubernetesClient admin;

    /** The mock server logs every request at INFO through java.util.logging; keep only its warnings. */
    private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver.MockWebServer");

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    private LocalApiServer(int port) {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        VersionInfo version = new VersionInfo.Builder().withMajor("1").withMinor("33")
                .withGitVersion("v1.33.0-juneau-local").withPlatform("linux/amd64").build();
        dispatcher = new LocalApiDispatcher(new KubernetesMixedDispatcher(expectations), discovery, version);
        // HTTPS: kubectl (client-go) never sends a bearer token over plain HTTP, and the token is how the webhook
        // tells a person from the controller
        web = new MockWebServer();
        server = new KubernetesMockServer(new Context(), web, expectations, dispatcher, true, version);
        server.init(InetAddress.getLoopbackAddress(), port);
        admin = client(Identities.ADMIN_TOKEN);
        for (String ns : List.of("default", "kube-system", "juneau-system")) {
            admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                    .create();
        }
        for (CustomResourceDefinition crd : crds()) {
            admin.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
    }

    /** Starts on 127.0.0.1; port 0 picks a free one. */
    public static LocalApiServer start(int port) {
        return new LocalApiServer(port);
    }

    /** Calls this webhook before storing writes to Services and Juneau's kinds; null turns admission off. */
    public void useWebhook(WebhookCaller webhook) {
        dispatcher.setGate(webhook == null ? null : new AdmissionGate(
                new io.fabric8.mockwebserver.http.Dispatcher() {
                    @Override
                    public io.fabric8.mockwebserver.http.MockResponse dispatch(
                            io.fabric8.mockwebserver.http.RecordedRequest request) {
                        return dispatcher.storage(request);
                    }
                }, discovery, webhook));
    }

    public String url() {
        return "https://" + server.getHostName() + ":" + server.getPort();
    }

    public int port() {
        return server.getPort();
    }

    /** An admin client (like kubectl with the kubeconfig this server writes). */
    public KubernetesClient adminClient() {
        return admin;
    }

    /** A client authenticated as the identity behind the token (see {@link Identities}). */
    public KubernetesClient client(String token) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url()).withOauthToken(token)
                .withCaCertData(caData())
                .withNamespace("default").withRequestRetryBackoffLimit(2).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /**
     * Reads a cluster-scoped object straight from storage, in-process. The mock server handles requests one at a
     * time on one event loop, and that loop is waiting on the webhook while it admits a write: a webhook reading
     * back over HTTP at that moment would wait for itself.
     */
    public io.fabric8.kubernetes.api.model.HasMetadata storageGet(
            Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type, String name) {
        String apiVersion = io.fabric8.kubernetes.api.model.HasMetadata.getApiVersion(type);
        String prefix = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String path = prefix + "/" + io.fabric8.kubernetes.api.model.HasMetadata.getPlural(type) + "/" + name;
        io.fabric8.mockwebserver.http.MockResponse r = dispatcher.storage(new io.fabric8.mockwebserver.http.RecordedRequest(
                "HTTP/1.1", io.fabric8.mockwebserver.dsl.HttpMethod.GET, path,
                io.fabric8.mockwebserver.http.Headers.builder().build(), new io.fabric8.mockwebserver.http.Buffer()));
        if (r.code() != 200 || r.getBody() == null) {
            return null;
        }
        return io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                new String(r.getBody().getBytes(), StandardCharsets.UTF_8), type);
    }

    /** The server's self-signed certificate (it is its own CA), base64 as kubeconfig wants it. */
    public String caData() {
        try {
            return java.util.Base64.getEncoder().encodeToString(
                    Files.readAllBytes(Path.of(web.getSelfSignedCertificate().certificatePath())));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read the local API server's certificate", e);
        }
    }

    /** A plain HTTP client (java.net.http) that trusts this server's certificate, for kubectl-like raw calls. */
    public java.net.http.HttpClient httpClient() {
        try {
            java.security.KeyStore trust = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("local-api-server", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(caData()))));
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory
                    .getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return java.net.http.HttpClient.newBuilder().sslContext(ssl)
                    .connectTimeout(java.time.Duration.ofSeconds(5)).build();
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the local API server's certificate: " + e.getMessage(), e);
        }
    }

    /** Writes a kubeconfig for kubectl (admin identity), readable by the owner only. */
    public Path writeKubeconfig(Path file) throws IOException {
        String yaml = String.join("\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: juneau-local",
                "  cluster:",
                "    server: " + url(),
                "    certificate-authority-data: " + caData(),
                "users:",
                "- name: juneau-admin",
                "  user:",
                "    token: " + Identities.ADMIN_TOKEN,
                "contexts:",
                "- name: juneau-local",
                "  context:",
                "    cluster: juneau-local",
                "    user: juneau-admin",
                "    namespace: default",
                "current-context: juneau-local",
                "");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, yaml, StandardCharsets.UTF_8);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException ignored) {
            // not a POSIX file system: the token is a local, well-known one anyway
        }
        return file;
    }

    /** The four CRDs, with the status subresource where the kind has a status (so status writes behave). */
    static List<CustomResourceDefinition> crds() {
        return List.of(crd(AddressPool.class, true), crd(ExternalNetwork.class, false),
                crd(ServiceLoadBalancer.class, true), crd(ARPAdvertisement.class, true));
    }

    private static CustomResourceDefinition crd(Class<? extends CustomResource<?, ?>> type, boolean status) {
        CustomResourceDefinitionBuilder builder = CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type);
        CustomResourceDefinition crd = builder.build();
        if (status) {
            crd = new CustomResourceDefinitionBuilder(crd).editSpec().editFirstVersion().withNewSubresources()
                    .withNewStatus().endStatus().endSubresources().endVersion().endSpec().build();
        }
        return crd;
    }

    @Override
    public void close() {
        admin.close();
        server.destroy();
    }
}
