package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.tls.KeyStores;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An embedded Kubernetes API server for one machine, for {@code juneau up}, the demo and the controller's tests:
 * HTTPS on 127.0.0.1 (its own CA, written into the kubeconfig), kube-apiserver's semantics for the kinds Juneau
 * uses (see the package's classes for each: patches, apply, Status bodies, finalizers, garbage collection,
 * selectors, watches, discovery, OpenAPI, tables, access reviews), every request authenticated by its bearer token
 * ({@link Identities}) and authorized with RBAC ({@link Authorizer}: kube's default roles and the manifests' own),
 * Juneau's CRDs installed from the generated manifests, and the admission webhooks called before anything is
 * stored. There is no scheduler, kubelet or
 * etcd: objects live in memory for the life of the process.
 */
public final class LocalApiServer implements AutoCloseable {
    private static final List<String> CRD_FILES = List.of("addresspools", "externalnetworks", "serviceloadbalancers",
            "arpadvertisements", "bgppeers", "bfdprofiles", "bgpsessions", "nodenetworks");
    private static final List<String> NAMESPACES = List.of("default", "kube-system", "kube-public",
            "kube-node-lease", "juneau-system");

    /** The ServiceCIDR every cluster has, as kube-apiserver names it. */
    public static final String DEFAULT_SERVICE_CIDR_NAME = "kubernetes";
    public static final String DEFAULT_SERVICE_CIDR = "10.96.0.0/12";

    /** The RBAC a cluster starts with, then the parts' own RBAC as manifests/base ships it (packaged by the pom). */
    private static final List<String> RBAC_FILES = List.of("default-rbac.yaml", "rbac/controller/rbac.yaml",
            "rbac/webhook/rbac.yaml", "rbac/agent/rbac.yaml");

    private final Registry registry = new Registry();
    private final Store store = new Store();
    private volatile Admission admission = Admission.NONE;
    private final Operations ops = new Operations(registry, store, () -> admission);
    private final GarbageCollector gc;
    private final ApiHandler handler;
    private final Server jetty;
    private final ServerConnector connector;
    private final CertificateAndKey ca;
    private final KubernetesClient admin;

    private LocalApiServer(int port) throws IOException {
        store.addListener(this::onCrdChange);
        gc = new GarbageCollector(ops, registry);
        ObjectNode version = JsonNodeFactory.instance.objectNode().put("major", "1").put("minor", "33")
                .put("gitVersion", "v1.33.0-juneau-local").put("gitCommit", "").put("gitTreeState", "clean")
                .put("buildDate", "2026-01-01T00:00:00Z").put("goVersion", "java" + Runtime.version().feature())
                .put("compiler", "javac").put("platform", "linux/amd64");
        handler = new ApiHandler(registry, ops, new Authorizer(store, registry), version, this::url);
        CertificateAndKey[] tls = processTls();
        ca = tls[0];
        CertificateAndKey serving = tls[1];
        char[] password = "local".toCharArray();
        KeyStore keyStore;
        try {
            keyStore = KeyStores.of(serving, password);
        } catch (me.loutres.juneau.tls.InvalidTlsMaterialException e) {
            throw new IOException("cannot build the API server's key store: " + e.getMessage(), e);
        }
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(keyStore);
        ssl.setKeyStorePassword(new String(password));
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        ssl.setSniRequired(false);
        // ChaCha20 first in a JVM without C2 (juneau up): AES-GCM is slow there (see CipherOrder)
        me.loutres.juneau.tls.CipherOrder.forThisJvm().ifPresent(ssl::setCipherComparator);
        QueuedThreadPool threads = new QueuedThreadPool(400, 8);
        threads.setName("local-apiserver");
        threads.setDaemon(true);
        jetty = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.addCustomizer(new SecureRequestCustomizer(false));
        connector = new ServerConnector(jetty, new SslConnectionFactory(ssl, "http/1.1"),
                new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setIdleTimeout(Duration.ofMinutes(40).toMillis());
        jetty.addConnector(connector);
        jetty.setHandler(handler);
        // watches asked for over WebSocket (as kube-apiserver serves them); idle as long as an HTTP watch may be
        ServerWebSocketContainer ws = ServerWebSocketContainer.ensure(jetty);
        ws.setIdleTimeout(Duration.ofMinutes(40));
        ws.setMaxTextMessageSize(64 * 1024);
        jetty.setStopTimeout(2000);
        // the namespaces, CRDs and RBAC exist before the first request: a client never sees a 403 of a server
        // whose roles are not stored yet
        bootstrap();
        try {
            jetty.start();
        } catch (Exception e) {
            throw new IOException("cannot start the local API server on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        admin = client(Identities.ADMIN_TOKEN);
    }

    private static CertificateAndKey[] processTls;

    /**
     * One CA and serving certificate per process, made on first use: a server started again on the same port (an
     * API server coming back) is trusted by the clients of the previous one, as a restarted kube-apiserver is.
     */
    private static synchronized CertificateAndKey[] processTls() {
        if (processTls == null) {
            Instant now = Instant.now();
            CertificateAndKey ca = CertificateIssuer.createCa("juneau-local-apiserver-ca", Duration.ofDays(30), now);
            CertificateAndKey serving = CertificateIssuer.issueServing(ca, "kubernetes", "default",
                    List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(30), now);
            processTls = new CertificateAndKey[] {ca, serving};
        }
        return processTls;
    }

    /** Starts on 127.0.0.1; port 0 picks a free one. */
    public static LocalApiServer start(int port) {
        try {
            return new LocalApiServer(port);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void bootstrap() throws IOException {
        Caller system = Caller.internal(Identities.fixed(Identities.ADMIN_TOKEN));
        try {
            for (String ns : NAMESPACES) {
                ObjectNode o = JsonNodeFactory.instance.objectNode();
                o.putObject("metadata").put("name", ns);
                ops.create(system, ops.namespaces(), null, o);
            }
            // kube-apiserver creates the default ServiceCIDR from its --service-cluster-ip-range; ClusterIPs here
            // come from 10.96.0.0/12 too (Strategies)
            ObjectNode serviceCidr = JsonNodeFactory.instance.objectNode();
            serviceCidr.put("apiVersion", "networking.k8s.io/v1").put("kind", "ServiceCIDR");
            serviceCidr.putObject("metadata").put("name", DEFAULT_SERVICE_CIDR_NAME);
            serviceCidr.putObject("spec").putArray("cidrs").add(DEFAULT_SERVICE_CIDR);
            ops.create(system, registry.find("networking.k8s.io/v1", "servicecidrs").orElseThrow(), null, serviceCidr);
            ResourceType crds = registry.find("apiextensions.k8s.io/v1", "customresourcedefinitions").orElseThrow();
            for (String plural : CRD_FILES) {
                try (InputStream in = LocalApiServer.class.getResourceAsStream("crds/" + plural + "."
                        + me.loutres.juneau.api.JuneauConstants.GROUP + ".yaml")) {
                    if (in == null) {
                        throw new IOException("the CRD of " + plural + " is not packaged with the local API server");
                    }
                    JsonNode crd = Json.YAML.readTree(in);
                    ObjectNode created = ops.create(system, crds, null, crd);
                    ops.modify(system, crds, null, created.path("metadata").path("name").asText(), "status",
                            live -> established(live), false, false);
                }
            }
            applyRbac(system);
        } catch (ApiException e) {
            throw new IOException("cannot set up the local API server: " + e.getMessage(), e);
        }
    }

    /** Stores kube's default roles and the manifests' RBAC: every request is authorized with them (and later ones). */
    private void applyRbac(Caller system) throws IOException, ApiException {
        for (String file : RBAC_FILES) {
            try (InputStream in = LocalApiServer.class.getResourceAsStream(file)) {
                if (in == null) {
                    throw new IOException(file + " is not packaged with the local API server");
                }
                var docs = Json.YAML.readerFor(ObjectNode.class).<ObjectNode>readValues(in);
                while (docs.hasNext()) {
                    ObjectNode o = docs.next();
                    String plural = o.path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "s";
                    ResourceType type = registry.find(Authorizer.RBAC_GROUP + "/v1", plural).orElseThrow(
                            () -> new IOException(file + " holds a " + o.path("kind").asText()
                                    + ", not a ClusterRole, Role or binding"));
                    ops.create(system, type, o.path("metadata").path("namespace").asText(null), o);
                }
            }
        }
    }

    private static ObjectNode established(ObjectNode crd) {
        ObjectNode status = Json.obj(crd, "status");
        var conditions = status.putArray("conditions");
        String now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        for (String type : List.of("NamesAccepted", "Established")) {
            conditions.addObject().put("type", type).put("status", "True").put("lastTransitionTime", now)
                    .put("reason", type.equals("Established") ? "InitialNamesAccepted" : "NoConflicts")
                    .put("message", type.equals("Established") ? "the initial names have been accepted"
                            : "no conflicts found");
        }
        status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
        status.putArray("storedVersions").add(crd.path("spec").path("versions").path(0).path("name").asText());
        return crd;
    }

    private void onCrdChange(Store.Event e) {
        if (!e.type().plural().equals("customresourcedefinitions")) {
            return;
        }
        if (e.kind().equals(Store.DELETED)) {
            registry.removeCrd(e.object());
        } else {
            registry.addCrd(e.object());
        }
    }

    /** Calls this webhook before storing writes to Services and Juneau's kinds; null turns admission off. */
    public void useWebhook(WebhookCaller webhook) {
        admission = webhook == null ? Admission.NONE : new AdmissionGate(webhook);
    }

    /** Sees (and may refuse) every request before it is served; null removes it. */
    public void onRequest(RequestHook hook) {
        handler.setHook(hook);
    }

    public String url() {
        return "https://127.0.0.1:" + port();
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** An admin client (like kubectl with the kubeconfig this server writes). */
    public KubernetesClient adminClient() {
        return admin;
    }

    /**
     * The node agent's bearer token for one node (made on first use, random): the agent's service account with the
     * node's name in {@code userInfo.extra}, as the token of a pod on that node, so the webhook refuses its writes
     * about other nodes.
     */
    public String agentToken(String node) {
        return Identities.agentToken(node);
    }

    /** A client authenticated as the identity behind the token (see {@link Identities}). */
    public KubernetesClient client(String token) {
        return client(token, b -> {
        });
    }

    /** A client as {@link #client(String)}, with more settings (user agent, retries, timeouts). */
    public KubernetesClient client(String token, Consumer<ConfigBuilder> settings) {
        ConfigBuilder b = new ConfigBuilder(Config.empty()).withMasterUrl(url()).withOauthToken(token)
                .withCaCertData(caData()).withNamespace("default").withRequestRetryBackoffLimit(2);
        settings.accept(b);
        return new KubernetesClientBuilder().withConfig(b.build())
                .withHttpClientFactory(new me.loutres.juneau.tls.JdkCipherSuitesClientFactory()).build();
    }

    /**
     * Reads a cluster-scoped object straight from storage, in-process (the webhook's view uses this to avoid a
     * round trip per cache miss).
     */
    public HasMetadata storageGet(Class<? extends HasMetadata> type, String name) {
        String apiVersion = HasMetadata.getApiVersion(type);
        String plural = HasMetadata.getPlural(type);
        return registry.find(apiVersion, plural).map(t -> store.get(t, null, name))
                .map(o -> Serialization.unmarshal(o.toString(), type)).orElse(null);
    }

    /** The CA certificate of this server's serving certificate, base64 of the PEM as kubeconfig wants it. */
    public String caData() {
        return Base64.getEncoder().encodeToString(ca.certificatePem().getBytes(StandardCharsets.US_ASCII));
    }

    /** The CA certificate, PEM. */
    public String caPem() {
        return ca.certificatePem();
    }

    /** A plain HTTP client (java.net.http) that trusts this server's certificate, for kubectl-like raw calls. */
    public java.net.http.HttpClient httpClient() {
        try {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("local-api-server", ca.leaf());
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory
                    .getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            javax.net.ssl.SSLContext sslContext = javax.net.ssl.SSLContext.getInstance("TLS");
            sslContext.init(null, tmf.getTrustManagers(), null);
            return java.net.http.HttpClient.newBuilder().sslContext(sslContext)
                    .version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the local API server's certificate: " + e.getMessage(), e);
        }
    }

    /** Writes a kubeconfig for kubectl (admin identity), readable by the owner only. */
    public Path writeKubeconfig(Path file) throws IOException {
        return writeKubeconfig(file, "juneau-admin", Identities.ADMIN_TOKEN);
    }

    /**
     * Writes a kubeconfig for one identity ({@code token} of {@link Identities}), readable by the owner only: a
     * controller or agent started with it acts as that component's service account does in a cluster.
     */
    public Path writeKubeconfig(Path file, String user, String token) throws IOException {
        String yaml = String.join("\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: juneau-local",
                "  cluster:",
                "    server: " + url(),
                "    certificate-authority-data: " + caData(),
                "users:",
                "- name: " + user,
                "  user:",
                "    token: " + token,
                "contexts:",
                "- name: juneau-local",
                "  context:",
                "    cluster: juneau-local",
                "    user: " + user,
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
            // not a POSIX file system (no owner-only mode to set): the file keeps the directory's default access
        }
        return file;
    }

    /**
     * An outage of this API server, as when kube-apiserver restarts: the port stops answering and every connection
     * and watch is cut; closing the returned handle serves the same port again. The objects stay, with their
     * resourceVersions and the watch history, as etcd keeps them across an API server restart.
     */
    public AutoCloseable outage() {
        try {
            connector.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop serving 127.0.0.1:" + port() + ": " + e.getMessage(), e);
        }
        return () -> connector.start();
    }

    /**
     * Freezes this API server as {@code SIGSTOP} would (docs/operations.md, "Node liveness after an outage"): requests
     * wait unanswered, watches deliver nothing, connections stay open; closing the returned handle resumes it, and
     * what was queued meanwhile is served in order.
     */
    public AutoCloseable freeze() {
        return handler.freeze().begin();
    }

    /** Open watch streams (for tests that check a client closed its watches). */
    public int openWatches() {
        return store.openWatches();
    }

    @Override
    public void close() {
        handler.closing();
        admin.close();
        gc.close();
        try {
            jetty.stop();
        } catch (Exception e) {
            // stopping: the port is released either way
        }
    }
}
