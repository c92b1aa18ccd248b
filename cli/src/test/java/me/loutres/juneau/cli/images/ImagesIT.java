package me.loutres.juneau.cli.images;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.cli.demo.LocalStack;
import me.loutres.juneau.cli.demo.lan.ApiForwarder;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.tls.ClientTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The images, built from the repository's Dockerfiles by bin/juneau-images on a base made from Debian packages (no
 * container registry is needed), then run as the manifests run them, against one local stack (what `juneau up`
 * runs: API server, webhook, controller): the webhook answers /readyz over HTTPS; the controller, with the
 * stack's own controller stopped, allocates a VIP; the agent, with only the capabilities, user and read-only root of
 * its DaemonSet, answers ARP for that VIP in a network namespace (198.18.0.0/24). Every container, image, namespace
 * and process it made is removed at the end; the base tar and the imported base stay as the build's cache.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ImagesIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String VIP = "198.18.0.100";
    static final String PREFIX = "localhost/juneau-it";
    /** Every image bin/juneau-images builds: the four of the install and validate's, for CI (docs/ci.md). */
    static final List<String> PARTS = List.of("webhook", "controller", "agent", "certs", "validate");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    final String tag = "it" + ProcessHandle.current().pid();
    final String run = "juneau-it-" + ProcessHandle.current().pid();
    final List<String> containers = new ArrayList<>();
    final Map<String, Duration> timings = new LinkedHashMap<>();
    ContainerHost host;
    Path work;
    LocalStack stack;
    ArpLab lab;
    ArpLab.Host client;
    ArpLab.Host node;
    ApiForwarder forwarder;
    Thread cleanupOnKill;

    @BeforeAll
    void buildTheImagesAndStartTheStack() throws Exception {
        Instant t0 = Instant.now();
        host = ContainerHost.prepare(ROOT.resolve("cli/target/containers"));
        timings.put("packages", Duration.between(t0, Instant.now()));
        cleanupOnKill = new Thread(this::cleanUp, "images-it-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanupOnKill);
        work = Files.createDirectories(ROOT.resolve("cli/target/images-it"));

        Instant t1 = Instant.now();
        // the jars are this build's (the package phase ran before the integration tests): no second Maven run
        ContainerHost.run(host.env(), 1200, "bash", ROOT.resolve("bin/juneau-images").toString(), "--builder",
                "podman", "--base", "debian", "--no-package", "--registry", PREFIX, "--tag", tag, "--oci-dir",
                work.resolve("oci").toString());
        timings.put("images", Duration.between(t1, Instant.now()));
        for (String part : PARTS) {
            String size = host.podman(60, "image", "inspect", "--format", "{{.Size}}", image(part)).trim();
            System.out.printf("ImagesIT: %s image %.0f MB, OCI archive %.0f MB%n", part, Long.parseLong(size) / 1e6,
                    Files.size(work.resolve("oci/" + part + ".oci.tar")) / 1e6);
        }

        stack = LocalStack.start(0, 0, false);
        assertThat(stack.awaitReady(Duration.ofSeconds(60))).as("the local stack is ready").isTrue();
        lab = ArpLab.create();
        client = lab.host("client", 1);
        node = lab.host("node-a", 11);
    }

    String image(String part) {
        return PREFIX + "/" + part + ":" + tag;
    }

    @Test
    @Order(1)
    void theOciArchivesAreWhatSkopeoCopiesToARegistry() throws Exception {
        for (String part : PARTS) {
            JsonNode inspect = new ObjectMapper().readTree(ContainerHost.run(host.env(), 60, "skopeo", "inspect",
                    "oci-archive:" + work.resolve("oci/" + part + ".oci.tar")));
            assertThat(inspect.path("Architecture").asText()).as("%s archive", part).isNotEmpty();
            assertThat(inspect.path("Layers").size()).as("%s layers", part).isPositive();
        }
    }

    @Test
    @Order(2)
    void theWebhookContainerAnswersReadyzOverHttps() throws Exception {
        Instant now = Instant.now();
        CertificateAndKey ca = CertificateIssuer.createCa("images-it-ca", Duration.ofHours(1), now);
        CertificateAndKey serving = CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system",
                List.of("localhost"), List.of("127.0.0.1"), Duration.ofHours(1), now);
        Path tls = Files.createDirectories(work.resolve("webhook"));
        Files.writeString(tls.resolve("tls.crt"), serving.certificatePem());
        Files.writeString(tls.resolve("tls.key"), serving.keyPem());
        kubeconfig(tls.resolve("kubeconfig"), Identities.ADMIN_TOKEN);
        // the container's user (the Deployment's) reads a throwaway key of this test's own CA
        readableByAll(tls);
        int port = freePort();
        long uid = runAsUser("manifests/base/webhook", "juneau-webhook");
        start("webhook", List.of("--network", "host", "--read-only", "--cap-drop", "ALL", "--user", uid + ":" + uid,
                "--security-opt", "no-new-privileges", "-v", tls + ":/etc/juneau:ro"),
                List.of("--tls-cert-file", "/etc/juneau/tls.crt", "--tls-key-file", "/etc/juneau/tls.key",
                        "--bind-address", "127.0.0.1", "--port", Integer.toString(port),
                        "--kubeconfig", "/etc/juneau/kubeconfig"));
        X509Certificate caCert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(ca.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        HttpClient https = HttpClient.newBuilder().sslContext(ClientTls.trusting(caCert))
                .connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/readyz"))
                .timeout(Duration.ofSeconds(3)).build();
        Instant started = Instant.now();
        int status = -1;
        String body = "";
        while (status != 200 && Duration.between(started, Instant.now()).toSeconds() < 60) {
            try {
                HttpResponse<String> r = https.send(readyz, HttpResponse.BodyHandlers.ofString());
                status = r.statusCode();
                body = r.body();
            } catch (java.io.IOException notYet) {
                Thread.sleep(250);
            }
        }
        timings.put("webhook ready", Duration.between(started, Instant.now()));
        assertThat(status).as("GET /readyz of the webhook container: %s%s", body, logs("webhook")).isEqualTo(200);
    }

    @Test
    @Order(3)
    void theControllerContainerAllocatesAVipAndTheAgentContainerAnswersArpForIt() throws Exception {
        // the stack's own controller steps down: only the container's can allocate from here on
        stack.controller().close();
        Path cfg = Files.createDirectories(work.resolve("controller"));
        kubeconfig(cfg.resolve("kubeconfig"), Identities.CONTROLLER_TOKEN);
        readableByAll(cfg);
        long uid = runAsUser("manifests/base/controller", "juneau-controller");
        start("controller", List.of("--network", "host", "--read-only", "--cap-drop", "ALL",
                "--user", uid + ":" + uid, "--security-opt", "no-new-privileges", "-v", cfg + ":/etc/juneau:ro"),
                List.of("--kubeconfig", "/etc/juneau/kubeconfig", "--metrics-port", Integer.toString(freePort())));

        KubernetesClient admin = stack.api().adminClient();
        objects(admin);
        Instant created = Instant.now();
        String vip = null;
        while (vip == null && Duration.between(created, Instant.now()).toSeconds() < 60) {
            Service s = admin.services().inNamespace("default").withName("web").get();
            if (s.getStatus() != null && s.getStatus().getLoadBalancer() != null
                    && s.getStatus().getLoadBalancer().getIngress() != null
                    && !s.getStatus().getLoadBalancer().getIngress().isEmpty()) {
                vip = s.getStatus().getLoadBalancer().getIngress().get(0).getIp();
            } else {
                Thread.sleep(200);
            }
        }
        timings.put("controller VIP", Duration.between(created, Instant.now()));
        assertThat(vip).as("the VIP the controller container gives default/web%s", logs("controller")).isEqualTo(VIP);

        // the agent: the DaemonSet's user, capabilities and read-only root, inside node-a's namespace
        forwarder = ApiForwarder.open(node.namespace(), stack.api().port());
        Path agentCfg = Files.createDirectories(work.resolve("agent"));
        kubeconfig(agentCfg.resolve("kubeconfig"), stack.api().agentToken("node-a"));
        JsonNode agent = container("manifests/base/agent/daemonset.yaml", "agent");
        JsonNode sc = agent.path("securityContext");
        assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
        List<String> opts = new ArrayList<>(List.of("--network", "ns:/run/netns/" + node.namespace(), "--read-only",
                "--cap-drop", "ALL", "--user", sc.path("runAsUser").asLong() + ":" + sc.path("runAsUser").asLong(),
                "--security-opt", "no-new-privileges", "-v", agentCfg + ":/etc/juneau:ro"));
        List<String> added = new ArrayList<>();
        sc.path("capabilities").path("add").forEach(c -> added.add(c.asText()));
        assertThat(added).as("the DaemonSet's added capabilities").isSubsetOf("NET_RAW", "NET_BIND_SERVICE")
                .contains("NET_RAW");
        added.forEach(c -> opts.addAll(List.of("--cap-add", c)));
        Instant agentStarted = Instant.now();
        start("agent", opts, List.of("--node", "node-a", "--kubeconfig", "/etc/juneau/kubeconfig",
                "--metrics-bind", "127.0.0.1", "--metrics-port", "7473"));
        List<String> answers = List.of();
        while (answers.isEmpty() && Duration.between(agentStarted, Instant.now()).toSeconds() < 60) {
            try (ArpProber arping = ArpProber.open(lab, client)) {
                answers = List.copyOf(arping.probe(VIP, 2, Duration.ofMillis(250)));
            }
        }
        timings.put("agent answers ARP", Duration.between(agentStarted, Instant.now()));
        assertThat(answers).as("MACs answering ARP for %s from the client%s", VIP, logs("agent"))
                .containsExactly(node.mac().toString());
    }

    /** An arp pool of one address, its network, Node node-a and Service default/web with a ready backend there. */
    private void objects(KubernetesClient admin) {
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-a")
                .addToLabels("kubernetes.io/hostname", "node-a").endMetadata().withNewStatus().addNewAddress()
                .withType("InternalIP").withAddress(node.ip()).endAddress().addNewCondition().withType("Ready")
                .withStatus("True").endCondition().endStatus().build()).create();
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        pool.setSpec(new AddressPoolSpec("arp", List.of(VIP + "-" + VIP)));
        admin.resources(AddressPool.class).resource(pool).create();
        ExternalNetwork net = new ExternalNetwork();
        net.setMetadata(new ObjectMetaBuilder().withName("lab").build());
        net.setSpec(new ExternalNetworkSpec("arp", List.of("lab")));
        admin.resources(ExternalNetwork.class).resource(net).create();
        admin.services().inNamespace("default").resource(new ServiceBuilder().withNewMetadata().withName("web")
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "lab").endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .withExternalTrafficPolicy("Local").addToSelector("app", "web").addNewPort().withName("http")
                .withPort(80).withNewTargetPort(8080).withProtocol("TCP").endPort().endSpec().build()).create();
        admin.discovery().v1().endpointSlices().inNamespace("default").resource(new EndpointSliceBuilder()
                .withNewMetadata().withName("web-a").withNamespace("default")
                .addToLabels(JuneauConstants.SERVICE_NAME_LABEL, "web").endMetadata().withAddressType("IPv4")
                .addNewEndpoint().withAddresses("10.244.1.10").withNodeName("node-a").withNewConditions()
                .withReady(true).withServing(true).withTerminating(false).endConditions().endEndpoint()
                .addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort().build()).create();
    }

    /** podman run -d, named after this run; the name is kept so the cleanup removes exactly these. */
    private void start(String part, List<String> options, List<String> args) throws Exception {
        String name = run + "-" + part;
        List<String> cmd = new ArrayList<>(List.of("run", "-d", "--name", name));
        containers.add(name);
        cmd.addAll(options);
        cmd.add(image(part));
        cmd.addAll(args);
        host.podman(120, cmd.toArray(String[]::new));
    }

    private String logs(String part) {
        try {
            return "\n--- " + part + " container log ---\n"
                    + host.tryPodman(30, "logs", "--tail", "40", run + "-" + part).output();
        } catch (Exception e) {
            return "\n(no log of " + part + ": " + e.getMessage() + ")";
        }
    }

    private void kubeconfig(Path file, String token) throws Exception {
        Files.writeString(file, String.join("\n", "apiVersion: v1", "kind: Config", "clusters:", "- name: local",
                "  cluster:", "    server: " + stack.api().url(), "    certificate-authority-data: "
                        + stack.api().caData(), "users:", "- name: u", "  user:", "    token: " + token,
                "contexts:", "- name: local", "  context:", "    cluster: local", "    user: u",
                "current-context: local", ""));
    }

    private static void readableByAll(Path dir) throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The runAsUser of a Deployment's pod in the base manifests. */
    private static long runAsUser(String dir, String deployment) throws Exception {
        try (var files = Files.list(ROOT.resolve(dir))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                for (JsonNode doc : YAML.readValues(YAML.getFactory().createParser(f.toFile()), JsonNode.class)
                        .readAll()) {
                    if ("Deployment".equals(doc.path("kind").asText())
                            && deployment.equals(doc.path("metadata").path("name").asText())) {
                        JsonNode pod = doc.path("spec").path("template").path("spec");
                        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
                        return pod.path("securityContext").path("runAsUser").asLong();
                    }
                }
            }
        }
        throw new AssertionError("no Deployment " + deployment + " in " + dir);
    }

    private static JsonNode container(String file, String name) throws Exception {
        JsonNode ds = YAML.readTree(ROOT.resolve(file).toFile());
        for (JsonNode c : ds.path("spec").path("template").path("spec").path("containers")) {
            if (name.equals(c.path("name").asText())) {
                return c;
            }
        }
        throw new AssertionError("no container " + name + " in " + file);
    }

    @AfterAll
    void tearDown() throws Exception {
        cleanUp();
        Runtime.getRuntime().removeShutdownHook(cleanupOnKill);
        assertThat(lab == null ? List.of() : lab.namespaces()).as("namespaces left behind").isEmpty();
        String left = host == null ? "" : host.podman(60, "ps", "-a", "--filter", "name=" + run, "--format",
                "{{.Names}}").trim();
        assertThat(left).as("containers left behind").isEmpty();
        String images = host == null ? "" : host.podman(60, "images", "--filter", "reference=" + PREFIX + "/*:" + tag,
                "--format", "{{.Repository}}").trim();
        assertThat(images).as("images left behind").isEmpty();
        System.out.println("ImagesIT timings: " + timings);
    }

    /** Containers (by name), images (by tag), the forwarder, the stack, the namespaces: only what this run made. */
    private synchronized void cleanUp() {
        try {
            for (String c : containers) {
                host.tryPodman(60, "rm", "-f", "-t", "5", c);
            }
            containers.clear();
            if (host != null) {
                for (String part : PARTS) {
                    host.tryPodman(60, "rmi", "-f", image(part));
                }
            }
        } catch (Exception e) {
            System.err.println("ImagesIT cleanup: " + e.getMessage());
        }
        if (forwarder != null) {
            forwarder.close();
            forwarder = null;
        }
        if (stack != null) {
            stack.close();
            stack = null;
        }
        if (lab != null) {
            lab.close();
        }
    }
}
