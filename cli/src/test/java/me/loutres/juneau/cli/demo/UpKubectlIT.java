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
    void kubectlWorksAgainstUpAndTheControllerReacts() throws Exception {
        Path examples = Path.of("..", "manifests", "examples").toAbsolutePath().normalize();
        Run nodes = kubectl("get", "nodes", "-o", "name");
        assertThat(nodes.out()).contains("node/node-a", "node/node-b", "node/node-c");

        Run created = kubectl("create", "--validate=false", "-f", examples.resolve("arp-network.yaml").toString());
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).contains("addresspool.juneau.loutres.me/lan-arp created",
                "externalnetwork.juneau.loutres.me/lan created");

        Path bad = Files.writeString(dir.resolve("bad.yaml"), String.join("\n",
                "apiVersion: v1", "kind: Service", "metadata:", "  name: typo", "  namespace: default",
                "  annotations:", "    " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + ": lann", "spec:",
                "  type: LoadBalancer", "  loadBalancerClass: " + JuneauConstants.LOAD_BALANCER_CLASS,
                "  externalTrafficPolicy: Local", "  ports:", "  - port: 80", ""));
        Run rejected = kubectl("create", "--validate=false", "-f", bad.toString());
        assertThat(rejected.code()).isNotZero();
        assertThat(rejected.err()).contains("Error from server (Forbidden): error when creating \"" + bad
                + "\": admission webhook \"" + JuneauConstants.WEBHOOK_SERVICES_VALIDATE + "\" denied the request:",
                "lann");
        assertThat(kubectl("get", "service", "typo").code()).isNotZero();

        Run web = kubectl("create", "--validate=false", "-f", examples.resolve("service-arp.yaml").toString());
        assertThat(web.code()).as(web.err()).isZero();
        String vip = eventually(() -> kubectl("get", "slb", "web", "-o", "jsonpath={.status.vip}").out(),
                v -> v.equals("192.168.10.200"));
        assertThat(vip).isEqualTo("192.168.10.200");

        Path slice = Files.writeString(dir.resolve("slice.yaml"), String.join("\n",
                "apiVersion: discovery.k8s.io/v1", "kind: EndpointSlice", "metadata:", "  name: web-abc12",
                "  namespace: default", "  labels:", "    kubernetes.io/service-name: web", "addressType: IPv4",
                "ports:", "- name: http", "  port: 8080", "  protocol: TCP", "endpoints:",
                "- addresses: [10.244.1.5]", "  nodeName: node-a", "  conditions: {ready: true}", ""));
        assertThat(kubectl("create", "--validate=false", "-f", slice.toString()).code()).isZero();
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
