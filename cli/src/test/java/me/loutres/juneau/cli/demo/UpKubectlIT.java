package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives {@code juneau up} with the real kubectl binary, following the README: the examples are created, the
 * webhook's rejections reach kubectl, and the controller reacts to what kubectl creates.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class UpKubectlIT {
    record Run(int code, String out, String err) {
    }

    @TempDir
    static Path dir;
    static Path kubeconfig;
    static CountDownLatch stop = new CountDownLatch(1);
    static Thread upThread;
    static ByteArrayOutputStream upOutput = new ByteArrayOutputStream();

    @BeforeAll
    static void up() throws Exception {
        if (findOnPath("kubectl") == null) {
            fail("kubectl is not on the PATH: this test drives `juneau up` with the real kubectl binary; install "
                    + "kubectl (the manifests checks need it too)");
        }
        kubeconfig = dir.resolve("kubeconfig");
        UpCommand up = new UpCommand(new PrintStream(upOutput, true, StandardCharsets.UTF_8), stop);
        upThread = new Thread(() -> new picocli.CommandLine(up).execute("--kubeconfig-out", kubeconfig.toString()),
                "juneau-up-under-test");
        upThread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!upOutput.toString(StandardCharsets.UTF_8).contains("Press Ctrl-C") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(upOutput.toString(StandardCharsets.UTF_8)).as("juneau up output").contains("Press Ctrl-C");
    }

    @AfterAll
    static void down() throws InterruptedException {
        stop.countDown();
        if (upThread != null) {
            upThread.join(30_000);
        }
    }

    @Test
    @org.junit.jupiter.api.Order(1)
    void kubectlWorksAgainstUpAndTheControllerReacts() throws Exception {
        Path examples = Path.of("..", "manifests", "examples").toAbsolutePath().normalize();
        Run nodes = kubectl("get", "nodes", "-o", "name");
        assertThat(nodes.out()).contains("node/node-a", "node/node-b", "node/node-c");

        Run created = kubectl("create", "-f", examples.resolve("arp-network.yaml").toString());
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).contains("addresspool.juneau.loutres.me/lan-arp created",
                "externalnetwork.juneau.loutres.me/lan created");

        Path bad = Files.writeString(dir.resolve("bad.yaml"), String.join("\n",
                "apiVersion: v1", "kind: Service", "metadata:", "  name: typo", "  namespace: default",
                "  annotations:", "    " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + ": lann", "spec:",
                "  type: LoadBalancer", "  loadBalancerClass: " + JuneauConstants.LOAD_BALANCER_CLASS,
                "  externalTrafficPolicy: Local", "  ports:", "  - port: 80", ""));
        Run rejected = kubectl("create", "-f", bad.toString());
        assertThat(rejected.code()).isNotZero();
        assertThat(rejected.err()).contains("Error from server (Forbidden): error when creating \"" + bad
                + "\": admission webhook \"" + JuneauConstants.WEBHOOK_SERVICES_VALIDATE + "\" denied the request:",
                "lann");
        assertThat(kubectl("get", "service", "typo").code()).isNotZero();

        Run web = kubectl("create", "-f", examples.resolve("service-arp.yaml").toString());
        assertThat(web.code()).as(web.err()).isZero();
        String vip = eventually(() -> kubectl("get", "slb", "web", "-o", "jsonpath={.status.vip}").out(),
                v -> v.equals("192.168.10.200"));
        assertThat(vip).isEqualTo("192.168.10.200");

        Path slice = Files.writeString(dir.resolve("slice.yaml"), String.join("\n",
                "apiVersion: discovery.k8s.io/v1", "kind: EndpointSlice", "metadata:", "  name: web-abc12",
                "  namespace: default", "  labels:", "    kubernetes.io/service-name: web", "addressType: IPv4",
                "ports:", "- name: http", "  port: 8080", "  protocol: TCP", "endpoints:",
                "- addresses: [10.244.1.5]", "  nodeName: node-a", "  conditions: {ready: true}", ""));
        assertThat(kubectl("create", "-f", slice.toString()).code()).isZero();
        eventually(() -> kubectl("get", "slb", "web", "-o", "jsonpath={.status.phase}/{.status.arpAnnouncingNode}")
                .out(), v -> v.equals("Ready/node-a"));
        eventually(() -> kubectl("get", "arpadvertisement", "slb-default-web", "-o", "jsonpath={.spec.nodeName}")
                .out(), v -> v.equals("node-a"));
        Run table = kubectl("get", "svc", "web");
        assertThat(table.out()).contains("EXTERNAL-IP", "192.168.10.200");
        Run slbTable = kubectl("get", "slb");
        assertThat(slbTable.out()).contains("VIP", "PHASE", "ARPNODE", "192.168.10.200", "Ready", "node-a");

        Run handEdit = kubectl("patch", "slb", "web", "--type=merge", "-p", "{\"spec\":{\"requestedIP\":\"1.2.3.4\"}}");
        assertThat(handEdit.code()).isNotZero();
        assertThat(handEdit.err()).contains("is managed by Juneau", "kubernetes-admin");

        Run patched = kubectl("patch", "svc", "web", "--type=merge", "-p", "{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}");
        assertThat(patched.code()).as(patched.err()).isZero();

        assertThat(kubectl("delete", "svc", "web").code()).isZero();
        eventually(() -> kubectl("get", "slb", "-o", "name").out(), String::isEmpty);
        eventually(() -> kubectl("get", "arpadvertisements", "-o", "name").out(), String::isEmpty);
    }

    /**
     * The commands people type first, with validation on (no --validate=false): apply twice, server-side apply,
     * the three patch types, create of an existing object, get -w, describe, events, explain, cluster-info and
     * auth can-i, each answering as on a cluster.
     */
    @Test
    @org.junit.jupiter.api.Order(2)
    void everydayKubectlCommandsBehaveAsOnACluster() throws Exception {
        Path examples = Path.of("..", "manifests", "examples").toAbsolutePath().normalize();
        Run first = kubectl("apply", "-f", examples.toString());
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("service/web ", "addresspool.juneau.loutres.me/lan-arp ");
        Run second = kubectl("apply", "-f", examples.toString());
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out().lines().toList()).isNotEmpty().allSatisfy(l -> assertThat(l).endsWith(" unchanged"));
        eventually(() -> kubectl("get", "slb", "web", "-o", "jsonpath={.status.vip}").out(), v -> !v.isEmpty());

        Run ssa = kubectl("apply", "--server-side", "-f", examples.resolve("service-bgp-requested-ip.yaml").toString());
        assertThat(ssa.code()).as(ssa.err()).isZero();
        assertThat(ssa.out()).contains("service/dns serverside-applied");

        Run strategic = kubectl("patch", "svc", "web", "-p", "{\"metadata\":{\"labels\":{\"patched\":\"smp\"}}}");
        assertThat(strategic.code()).as(strategic.err()).isZero();
        Run merge = kubectl("patch", "svc", "web", "--type=merge", "-p", "{\"metadata\":{\"labels\":{\"m\":\"1\"}}}");
        assertThat(merge.code()).as(merge.err()).isZero();
        Run json = kubectl("patch", "svc", "web", "--type=json", "-p",
                "[{\"op\":\"add\",\"path\":\"/metadata/labels/j\",\"value\":\"2\"}]");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(kubectl("get", "svc", "web", "-o", "jsonpath={.metadata.labels.patched}/{.metadata.labels.m}/"
                + "{.metadata.labels.j}").out()).isEqualTo("smp/1/2");
        Run failing = kubectl("patch", "svc", "web", "--type=json", "-p",
                "[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"other\"}]");
        assertThat(failing.code()).isNotZero();
        assertThat(failing.err()).contains("Expected value");

        Path web = examples.resolve("service-arp.yaml");
        Run exists = kubectl("create", "-f", web.toString());
        assertThat(exists.code()).isNotZero();
        assertThat(exists.err()).contains("Error from server (AlreadyExists): error when creating \"" + web
                + "\": services \"web\" already exists");

        watchSeesAChange();

        for (String[] what : new String[][] {{"svc", "web"}, {"slb", "web"}, {"node", "node-a"}}) {
            Run d = kubectl("describe", what[0], what[1]);
            assertThat(d.code()).as(String.join(" ", what) + ": " + d.err()).isZero();
            assertThat(d.out()).contains("Name:", what[1], "Events:");
        }
        assertThat(kubectl("describe", "svc", "web").out()).contains("IPAllocated", "192.168.10.200");

        Run events = kubectl("events", "--for", "service/web");
        assertThat(events.code()).as(events.err()).isZero();
        assertThat(events.out()).contains("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE", "IPAllocated",
                "Service/web");
        Run getEvents = kubectl("get", "events", "--field-selector", "involvedObject.name=web");
        assertThat(getEvents.code()).as(getEvents.err()).isZero();
        assertThat(getEvents.out().lines().findFirst().orElse("")).matches(
                "LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE\\s*");
        assertThat(getEvents.out()).contains("service/web", "IPAllocated").doesNotContain("service/dns");

        Run explain = kubectl("explain", "addresspool.spec");
        assertThat(explain.code()).as(explain.err()).isZero();
        assertThat(explain.out()).contains("KIND:", "AddressPool", "advertiseMode", "addresses");

        Run info = kubectl("cluster-info");
        assertThat(info.code()).as(info.err()).isZero();
        assertThat(info.out()).contains("Kubernetes control plane is running at https://127.0.0.1:");

        String controller = "--as=" + JuneauConstants.DEFAULT_CONTROLLER_USERNAME;
        assertThat(kubectl("auth", "can-i", "create", "services").out().trim()).isEqualTo("yes");
        assertThat(kubectl("auth", "can-i", "update", "services", "--subresource=status", controller).out().trim())
                .isEqualTo("yes");
        Run denied = kubectl("auth", "can-i", "create", "services", controller);
        assertThat(denied.out().trim()).isEqualTo("no");
        assertThat(denied.code()).isEqualTo(1);
    }

    /** kubectl get -w prints the list, then a line per change, until it is stopped. */
    private static void watchSeesAChange() throws Exception {
        List<String> cmd = List.of("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "svc", "web", "-w",
                "--output-watch-events");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            List<String> seen = new ArrayList<>();
            seen.add(lines.readLine()); // header
            seen.add(lines.readLine()); // the current object
            assertThat(seen.get(0)).contains("EVENT", "NAME", "TYPE");
            assertThat(kubectl("label", "svc", "web", "watched=yes").code()).isZero();
            String change = lines.readLine();
            assertThat(change).as("watch output after " + seen).startsWith("MODIFIED").contains("web");
        } finally {
            p.destroy();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("kubectl get -w stops when asked").isTrue();
        }
    }

    /**
     * The agent's Events on a BGPPeer reach {@code kubectl describe bgppeer} (issue 41, item 1), written by the
     * agent's {@link me.loutres.juneau.agent.kube.Reporter}. kubectl lists only the Events whose
     * {@code involvedObject.uid} is the object's: one without the uid (as the agent wrote them before) is in
     * {@code kubectl get events} but not in describe's output, which is what made describe say {@code <none>}.
     */
    @Test
    @org.junit.jupiter.api.Order(3)
    void kubectlDescribeBgpPeerShowsTheAgentsEvents() throws Exception {
        Path peer = Files.writeString(dir.resolve("peer.yaml"), String.join("\n",
                "apiVersion: " + JuneauConstants.API_VERSION, "kind: BGPPeer", "metadata:", "  name: describe-me",
                "spec:", "  peerAddress: 198.18.0.1", "  peerASN: 64512", "  myASN: 64513", ""));
        Run created = kubectl("create", "-f", peer.toString());
        assertThat(created.code()).as(created.err()).isZero();
        String uid = kubectl("get", "bgppeer", "describe-me", "-o", "jsonpath={.metadata.uid}").out().trim();
        assertThat(uid).isNotEmpty();

        try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kubeconfig))).build()) {
            var reporter = new me.loutres.juneau.agent.kube.Reporter(client, "node-a");
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER,
                    new me.loutres.juneau.agent.kube.Reporter.Involved("describe-me", uid, null), "Normal",
                    "BGPSessionUp", "BGP session from node node-a Established");
            reporter.eventOnClusterObject(JuneauConstants.KIND_BGP_PEER,
                    new me.loutres.juneau.agent.kube.Reporter.Involved("describe-me", null, null), "Warning",
                    "WithoutUid", "an Event as the agent wrote them before");
        }

        assertThat(kubectl("get", "events", "-n", "default").out()).contains("BGPSessionUp", "WithoutUid");
        Run described = kubectl("describe", "bgppeer", "describe-me");
        assertThat(described.code()).as(described.err()).isZero();
        assertThat(described.out()).contains("Events:", "BGPSessionUp", "BGP session from node node-a Established",
                "juneau-agent").doesNotContain("WithoutUid");
    }

    private static String eventually(java.util.concurrent.Callable<String> probe, Predicate<String> done)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = null;
        while (System.nanoTime() < deadline) {
            last = probe.call().trim();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        return fail("condition not reached in 30 s; last value: '" + last + "'");
    }

    private static Run kubectl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("kubectl");
        cmd.add("--kubeconfig");
        cmd.add(kubeconfig.toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("kubectl " + String.join(" ", args) + " did not finish in 60 s");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static Path findOnPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
