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
 * throw-away certificates and a small offline cluster as kubectl prints one, answering one request on every path (first
 * a Service review as the API server sends it), then picocli's reading of the command (help, a usage error: a plain
 * start no longer builds it), plus a second webhook whose API server is unreachable (the client and informer classes of a real cluster). The JVM runs it with
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
            picocliPath();
        } finally {
            System.err.printf("juneau cds training: %d reviews answered in %d ms%n", served,
                    (System.nanoTime() - start) / 1_000_000);
            // the training's key, certificates and state are of no use after it; a build leaves nothing in /tmp
            deleteQuietly(dir);
            // the shutdown hook stops the webhook; the JVM writes the archive as it exits
            System.exit(0);
        }
    }

    /**
     * The picocli model of {@code juneau webhook}, its help and a usage error: a plain start reads its arguments
     * without picocli (WebhookArgs), so only this puts picocli's classes in the archive for the other starts.
     */
    private static void picocliPath() {
        java.io.PrintWriter nowhere = new java.io.PrintWriter(java.io.Writer.nullWriter());
        for (String[] args : List.of(new String[] {"webhook", "--help"}, new String[] {"webhook", "--no-such-option"},
                new String[] {"webhook", "--version"})) {
            Juneau.commandLine(args[0]).setOut(nowhere).setErr(nowhere).execute(args);
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

    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException | RuntimeException e) {
            System.err.println("juneau cds training: could not remove " + dir + ": " + e.getMessage());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }

    /**
     * The cluster as {@code kubectl get -o yaml} prints it (block style, statuses filled in by the controller), so the
     * state file's parser and the model types a real cluster's view holds are all loaded here.
     */
    private static final String CLUSTER_STATE = """
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata:
              name: pool-bgp
            spec:
              advertiseMode: bgp
              addresses:
                - 203.0.113.0/28
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: AddressPool
            metadata:
              name: pool-arp
            spec:
              advertiseMode: arp
              addresses:
                - 198.51.100.10-198.51.100.20
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata:
              name: public
            spec:
              type: bgp
              addressPools: [pool-bgp]
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ExternalNetwork
            metadata:
              name: lan
            spec:
              type: arp
              addressPools:
                - pool-arp
            ---
            apiVersion: v1
            kind: Node
            metadata:
              name: node-a
              labels:
                kubernetes.io/hostname: node-a
            status:
              addresses:
                - type: InternalIP
                  address: 192.168.1.10
                - type: Hostname
                  address: node-a
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ServiceLoadBalancer
            metadata:
              name: existing
              namespace: default
              generation: 2
              finalizers:
                - serviceloadbalancer.juneau.loutres.me/allocation-claim
            spec:
              serviceRef:
                name: existing
              externalNetwork: public
            status:
              observedGeneration: 2
              phase: Ready
              vip: 203.0.113.5
              addressPool: pool-bgp
              ports:
                - name: http
                  protocol: TCP
                  port: 80
                  targetPort: 8080
              advertisingNodes:
                - node-a
              backendSummary:
                totalReady: 2
                localReadyNodes: 1
              conditions:
                - type: Ready
                  status: "True"
                  reason: Advertised
                  message: advertised by 1 node
                  lastTransitionTime: "2026-11-29T10:15:30Z"
            ---
            apiVersion: juneau.loutres.me/v1alpha1
            kind: ServiceLoadBalancer
            metadata:
              name: on-the-lan
              namespace: default
            spec:
              serviceRef:
                name: on-the-lan
              externalNetwork: lan
            status:
              phase: Ready
              vip: 198.51.100.10
              addressPool: pool-arp
              arpAnnouncingNode: node-a
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

    /**
     * A Service CREATE as kube-apiserver sends it after defaulting (kubectl's last-applied annotation, managedFields,
     * cluster IPs, node ports, status), so the first real review's path is in the archive, not only the minimal one's.
     */
    private static final String REAL_SERVICE = """
            {"kind":"Service","apiVersion":"v1","metadata":{"name":"storefront","namespace":"shop",
             "uid":"5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9","creationTimestamp":"2026-11-29T10:15:30Z",
             "labels":{"app":"storefront","app.kubernetes.io/managed-by":"kubectl"},
             "annotations":{"juneau.loutres.me/load-balancer-external-network":"public",
              "kubectl.kubernetes.io/last-applied-configuration":"{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Service\\"}\\n"},
             "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",
              "time":"2026-11-29T10:15:30Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},
              "f:juneau.loutres.me/load-balancer-external-network":{}}},"f:spec":{"f:externalTrafficPolicy":{},
              "f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{}}},
              "f:type":{}}}}]},
             "spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080,"nodePort":31080},
              {"name":"https","protocol":"TCP","port":443,"targetPort":8443,"nodePort":31443}],
              "selector":{"app":"storefront"},"clusterIP":"10.96.143.27","clusterIPs":["10.96.143.27"],
              "type":"LoadBalancer","sessionAffinity":"None","externalTrafficPolicy":"Local","healthCheckNodePort":32456,
              "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","allocateLoadBalancerNodePorts":true,
              "loadBalancerClass":"juneau.loutres.me/load-balancer","internalTrafficPolicy":"Cluster"},
             "status":{"loadBalancer":{}}}""";

    private static final List<String[]> REQUESTS = List.of(
            new String[] {"/validate/services", review("", "Service", "services", "CREATE", "ci", REAL_SERVICE)},
            new String[] {"/mutate/services", review("", "Service", "services", "CREATE", "ci", REAL_SERVICE)},
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
