package me.loutres.juneau.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import me.loutres.juneau.tls.CertificateAndKey;
import me.loutres.juneau.tls.CertificateIssuer;
import me.loutres.juneau.tls.ClientTls;
import me.loutres.juneau.webhook.server.WebhookConfig;
import me.loutres.juneau.webhook.server.WebhookServer;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/**
 * The training run behind the webhook's class-data sharing archive (built by {@code mvn package}, used by
 * {@code bin/juneau webhook} and the image): {@code juneau webhook} as an operator starts it, on loopback with
 * throw-away certificates and a small offline cluster, answering one request on every path, plus a second webhook
 * whose API server is unreachable (the client and informer classes of a real cluster). The JVM runs it with
 * {@code -XX:DumpLoadedClassList}, then dumps the listed classes into a static archive ({@code -Xshare:dump}: on Java 17
 * only a static archive holds picocli's Java 5 classes; cli/pom.xml and webhook/Dockerfile), so every class loaded here
 * is mapped from the archive at the next start instead of being read, parsed and verified from the jars. Bounded
 * (about a minute at most) and never fails the build: a run that cannot finish lists fewer classes, and a missing or
 * stale archive only costs start-up time.
 */
public final class CdsTraining {
    private static final Duration READY_WITHIN = Duration.ofSeconds(60);

    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        Path dir = Files.createTempDirectory("juneau-cds-training");
        int served = 0;
        try {
            CertificateAndKey ca = CertificateIssuer.createCa("juneau-cds-training", Duration.ofHours(1), Instant.now());
            CertificateAndKey pair = CertificateIssuer.issueServing(ca, "juneau-webhook", "juneau-system",
                    List.of("localhost"), List.of("127.0.0.1"), Duration.ofHours(1), Instant.now());
            Path cert = Files.writeString(dir.resolve("tls.crt"), pair.certificatePem());
            Path key = Files.writeString(dir.resolve("tls.key"), pair.keyPem());
            Path state = Files.writeString(dir.resolve("cluster-state.yaml"), CLUSTER_STATE);
            int port = freePort();
            Thread webhook = new Thread(() -> Juneau.run("webhook", "--tls-cert-file", cert.toString(),
                    "--tls-key-file", key.toString(), "--bind-address", "127.0.0.1", "--port", Integer.toString(port),
                    "--cluster-state", state.toString()), "cds-training-webhook");
            webhook.setDaemon(true);
            webhook.start();
            SSLContext tls = ClientTls.trusting(ca.leaf());
            long deadline = System.nanoTime() + READY_WITHIN.toNanos();
            while (status(tls, port, "GET", "/readyz", null) != 200) {
                if (System.nanoTime() > deadline || !webhook.isAlive()) {
                    System.err.println("juneau cds training: the webhook did not become ready; the archive holds "
                            + "start-up classes only");
                    return;
                }
                Thread.sleep(50);
            }
            for (String[] request : REQUESTS) {
                if (status(tls, port, "POST", request[0], request[1]) == 200) {
                    served++;
                }
            }
            for (String path : List.of("/healthz", "/metrics", "/nothing-here")) {
                status(tls, port, "GET", path, null);
            }
            unreachableCluster(cert, key, dir);
        } finally {
            System.err.printf("juneau cds training: %d reviews answered in %d ms%n", served,
                    (System.nanoTime() - start) / 1_000_000);
            // the shutdown hook stops the webhook; the JVM writes the archive as it exits
            System.exit(0);
        }
    }

    /** A webhook whose API server refuses connections: loads the client, the informers and their retry path. */
    private static void unreachableCluster(Path cert, Path key, Path dir) throws Exception {
        Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: none, cluster: {server: "https://127.0.0.1:%d"}}]
                contexts: [{name: none, context: {cluster: none, user: none}}]
                current-context: none
                users: [{name: none, user: {token: none}}]
                """.formatted(freePort()));
        WebhookServer server = new WebhookServer();
        server.start(WebhookConfig.builder(cert, key).bindAddress("127.0.0.1").port(0)
                .viewSource(new ClusterViewSource.Kubeconfig(kubeconfig)).build());
        Thread.sleep(1_500);
        server.stop();
    }

    private static int status(SSLContext tls, int port, String method, String path, String body) {
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + (body == null ? "" : "Content-Type: application/json\r\n")
                    + "Content-Length: " + content.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] answer = in.readAllBytes();
            String statusLine = new String(answer, 0, Math.min(answer.length, 12), StandardCharsets.US_ASCII);
            return statusLine.startsWith("HTTP/1.1 ") ? Integer.parseInt(statusLine.substring(9, 12)) : -1;
        } catch (IOException | RuntimeException notYet) {
            return -1;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    private static final String CLUSTER_STATE = """
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata: {name: pool-bgp}
            spec: {advertiseMode: bgp, addresses: [203.0.113.0/28]}
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata: {name: public}
            spec: {type: bgp, addressPools: [pool-bgp]}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node-a}
            status: {addresses: [{type: InternalIP, address: 192.168.1.10}]}
            """;

    private static String review(String group, String kind, String resource, String operation, String user,
                                 String object) {
        String version = group.isEmpty() ? "v1" : "v1alpha1";
        return """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
                 "uid":"00000000-0000-4000-8000-000000000001",
                 "kind":{"group":"%1$s","version":"%2$s","kind":"%3$s"},
                 "resource":{"group":"%1$s","version":"%2$s","resource":"%4$s"},
                 "operation":"%5$s","userInfo":{"username":"%6$s","groups":["system:authenticated"]},
                 "object":%7$s,"oldObject":null,"dryRun":false,
                 "options":{"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"}}}
                """.formatted(group, version, kind, resource, operation, user, object);
    }

    private static final String SERVICE = """
            {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"default",
             "annotations":{"juneau.loutres.me/load-balancer-external-network":"public"}},
             "spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/load-balancer",
             "externalTrafficPolicy":"Cluster","selector":{"app":"web"},"ipFamilies":["IPv4"],
             "ports":[{"name":"http","port":80,"protocol":"TCP","targetPort":8080}]}}""";
    private static final String GROUP = "juneau.loutres.me";
    private static final String CONTROLLER = "system:serviceaccount:juneau-system:juneau-controller";

    private static final List<String[]> REQUESTS = List.of(
            new String[] {"/mutate/services", review("", "Service", "services", "CREATE", "ci", SERVICE)},
            new String[] {"/validate/services", review("", "Service", "services", "CREATE", "ci",
                    SERVICE.replace("Cluster", "Local"))},
            new String[] {"/validate/addresspools", review(GROUP, "AddressPool", "addresspools", "CREATE", "ci", """
                    {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-new"},
                     "spec":{"advertiseMode":"bgp","addresses":["203.0.113.8/29"]}}""")},
            new String[] {"/validate/externalnetworks", review(GROUP, "ExternalNetwork", "externalnetworks", "CREATE",
                    "ci", """
                    {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"dmz"},
                     "spec":{"type":"bgp","addressPools":["pool-missing"]}}""")},
            new String[] {"/validate/serviceloadbalancers", review(GROUP, "ServiceLoadBalancer",
                    "serviceloadbalancers", "CREATE", CONTROLLER, """
                    {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ServiceLoadBalancer",
                     "metadata":{"name":"web","namespace":"default"},
                     "spec":{"serviceRef":{"name":"web"},"externalNetwork":"public"}}""")},
            new String[] {"/validate/arpadvertisements", review(GROUP, "ARPAdvertisement", "arpadvertisements",
                    "CREATE", CONTROLLER, """
                    {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ARPAdvertisement","metadata":{"name":"slb-default-web"},
                     "spec":{"externalNetwork":"public","address":"203.0.113.2","nodeName":"node-a"}}""")},
            new String[] {"/validate/services", "{\"not\":\"a review\"}"});
}
