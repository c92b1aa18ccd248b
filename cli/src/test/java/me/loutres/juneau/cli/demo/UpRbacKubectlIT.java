package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.concurrent.atomic.AtomicReference;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.apiserver.LocalApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code juneau up} enforces what a cluster enforces, seen with the real kubectl: for each identity (the admin
 * kubeconfig, the controller's, the webhook's service account, node-a's agent) and a table of verbs,
 * {@code kubectl auth can-i} and the real request agree, and both are what manifests/ grant; a request without a
 * token is refused; the agent of node-a cannot write node-b's BGPSession status.
 */
class UpRbacKubectlIT {
    private static final String AGENT = "system:serviceaccount:juneau-system:juneau-agent";
    private static final ObjectMapper JSON = new ObjectMapper();

    record Run(int code, String out, String err) {
        /** Refused by RBAC (not by the webhook, whose refusals are also 403s). */
        boolean forbiddenByRbac() {
            return err.contains("is forbidden: User ");
        }
    }

    @TempDir
    static Path dir;
    static final CountDownLatch STOP = new CountDownLatch(1);
    static final AtomicReference<LocalApiServer> API = new AtomicReference<>();
    static Thread upThread;

    @BeforeAll
    static void up() throws Exception {
        assertThat(Path.of("/usr/bin/kubectl")).as("this test drives `juneau up` with the real kubectl").exists();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        UpCommand up = new UpCommand(new PrintStream(output, true, StandardCharsets.UTF_8), STOP, API::set);
        upThread = new Thread(() -> new picocli.CommandLine(up).execute("--kubeconfig-out",
                dir.resolve("admin").toString()), "juneau-up-under-test");
        upThread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!output.toString(StandardCharsets.UTF_8).contains("Press Ctrl-C") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(output.toString(StandardCharsets.UTF_8)).as("juneau up output").contains("Press Ctrl-C",
                dir.resolve("admin.agent.node-a") + " (agent of node-a)");
        // up writes no kubeconfig for the webhook (it runs inside up); one with its service account's token
        API.get().writeKubeconfig(dir.resolve("admin.webhook"), "juneau-webhook", Identities.WEBHOOK_TOKEN);

        Path objects = Files.writeString(dir.resolve("objects.yaml"), String.join("\n",
                "apiVersion: v1", "kind: Service", "metadata: {name: plain, namespace: default}",
                "spec: {ports: [{port: 80}]}", "---",
                "apiVersion: v1", "kind: Secret", "metadata: {name: bgp-auth, namespace: juneau-system}",
                "stringData: {password: s3cret}", "---",
                "apiVersion: juneau.loutres.me/v1alpha1", "kind: BGPPeer", "metadata: {name: tor}",
                "spec: {peerAddress: 198.18.0.1, peerASN: 65000, myASN: 65001}", ""));
        Run applied = kubectl("admin", "apply", "-f", objects.toString());
        assertThat(applied.code()).as(applied.err()).isZero();
        for (String node : List.of("node-a", "node-b")) {
            Run session = kubectl("agent." + node, "create", "-f",
                    Files.writeString(dir.resolve("session-" + node + ".yaml"), String.join("\n",
                            "apiVersion: juneau.loutres.me/v1alpha1", "kind: BGPSession",
                            "metadata: {name: tor." + node + ", labels: {juneau.loutres.me/peer: tor,"
                                    + " juneau.loutres.me/node: " + node + "}}",
                            "spec: {peer: tor, nodeName: " + node + "}", "")).toString());
            assertThat(session.code()).as("%s's agent creates its session: %s", node, session.err()).isZero();
        }
    }

    @AfterAll
    static void down() throws InterruptedException {
        STOP.countDown();
        if (upThread != null) {
            upThread.join(30_000);
        }
    }

    /**
     * One row: who, the verb, the resource as kubectl names it, the API path of the request (collection or object,
     * with {@code /status} for the subresource), and what manifests/ grant. Writes are dry runs.
     */
    @ParameterizedTest(name = "{0} {1} {2} {4} -> {5}")
    @CsvSource(delimiter = '|', value = {
            "admin      | create           | bgppeers.juneau.loutres.me | ''            | /apis/juneau.loutres.me/v1alpha1/bgppeers                                | yes",
            "admin      | delete           | secrets/bgp-auth           | juneau-system | /api/v1/namespaces/juneau-system/secrets/bgp-auth                        | yes",
            "controller | update           | services/plain             | default       | /api/v1/namespaces/default/services/plain/status                         | yes",
            "controller | create           | services                   | default       | /api/v1/namespaces/default/services                                      | no",
            "controller | list             | serviceloadbalancers.juneau.loutres.me | * | /apis/juneau.loutres.me/v1alpha1/serviceloadbalancers                    | yes",
            "controller | get              | secrets/bgp-auth           | juneau-system | /api/v1/namespaces/juneau-system/secrets/bgp-auth                        | no",
            "controller | watch            | leases.coordination.k8s.io | juneau-system | /apis/coordination.k8s.io/v1/namespaces/juneau-system/leases             | yes",
            "controller | watch            | leases.coordination.k8s.io | default       | /apis/coordination.k8s.io/v1/namespaces/default/leases                   | no",
            "webhook    | watch            | secrets                    | juneau-system | /api/v1/namespaces/juneau-system/secrets                                 | yes",
            "webhook    | get              | nodes/node-a               | ''            | /api/v1/nodes/node-a                                                     | yes",
            "webhook    | create           | addresspools.juneau.loutres.me | ''        | /apis/juneau.loutres.me/v1alpha1/addresspools                            | no",
            "agent.node-a | update         | bgpsessions.juneau.loutres.me/tor.node-a | '' | /apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-a/status          | yes",
            "agent.node-a | patch          | bgppeers.juneau.loutres.me/tor | ''        | /apis/juneau.loutres.me/v1alpha1/bgppeers/tor                            | no",
            "agent.node-a | get            | secrets/bgp-auth           | juneau-system | /api/v1/namespaces/juneau-system/secrets/bgp-auth                        | yes",
            "agent.node-a | list           | secrets                    | juneau-system | /api/v1/namespaces/juneau-system/secrets                                 | no",
            "agent.node-a | deletecollection | bgpsessions.juneau.loutres.me | ''       | /apis/juneau.loutres.me/v1alpha1/bgpsessions                             | no",
            "agent.node-a | create         | events                     | default       | /api/v1/namespaces/default/events                                        | yes",
    })
    void canIAndTheRealRequestAgree(String who, String verb, String resource, String namespace, String path,
            String granted) throws Exception {
        List<String> canI = new ArrayList<>(List.of("auth", "can-i", verb, resource));
        if (path.endsWith("/status")) {
            canI.add("--subresource=status");
        }
        canI.addAll(namespace.equals("*") ? List.of("-A") : namespace.isEmpty() ? List.of()
                : List.of("-n", namespace));
        Run answer = kubectl(who, canI.toArray(String[]::new));
        assertThat(answer.out().trim()).as("kubectl auth can-i as %s: %s", who, answer.err()).isEqualTo(granted);

        Run real = request(who, verb, path);
        assertThat(real.forbiddenByRbac() ? "no" : "yes").as("the real %s as %s: %s %s", verb, who, real.out(),
                real.err()).isEqualTo(granted);
        if (real.forbiddenByRbac()) {
            assertThat(real.err()).containsAnyOf("Error from server (Forbidden)", "\"reason\":\"Forbidden\"");
        }
    }

    /** The request the row describes, made with kubectl as that identity; writes are dry runs. */
    private static Run request(String who, String verb, String path) throws Exception {
        String dry = "?dryRun=All";
        return switch (verb) {
            case "get", "list" -> kubectl(who, "get", "--raw", path);
            case "watch" -> kubectl(who, "get", "--raw", path + "?watch=true&timeoutSeconds=1");
            case "create" -> kubectl(who, "create", "--raw", path + dry, "-f", body(path).toString());
            case "update" -> kubectl(who, "replace", "--raw", path + dry, "-f", current(path).toString());
            // kubectl patch reads the object first (a get, in a cluster too): the PATCH alone, as a client sends it
            case "patch" -> curl(who, "PATCH", path + dry, "{\"spec\":{\"peerASN\":65009}}");
            case "delete", "deletecollection" -> kubectl(who, "delete", "--raw", path + dry);
            default -> throw new IllegalArgumentException(verb);
        };
    }

    /** The object at the path (without /status) as the admin reads it: what an update sends back. */
    private static Path current(String path) throws Exception {
        Run got = kubectl("admin", "get", "--raw", path.replaceFirst("/status$", ""));
        assertThat(got.code()).as(got.err()).isZero();
        return Files.writeString(Files.createTempFile(dir, "current", ".json"), got.out());
    }

    /** A valid new object for a collection path. */
    private static Path body(String path) throws IOException {
        String kind = path.substring(path.lastIndexOf('/') + 1);
        String json = switch (kind) {
            case "bgppeers" -> "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"BGPPeer\",\"metadata\":"
                    + "{\"name\":\"tor-new\"},\"spec\":{\"peerAddress\":\"198.18.0.2\",\"peerASN\":65000,"
                    + "\"myASN\":65001}}";
            case "addresspools" -> "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"AddressPool\","
                    + "\"metadata\":{\"name\":\"p\"},\"spec\":{\"advertiseMode\":\"bgp\",\"addresses\":"
                    + "[\"198.18.9.0/30\"]}}";
            case "services" -> "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"other\"},"
                    + "\"spec\":{\"ports\":[{\"port\":80}]}}";
            case "events" -> "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"plain.1\"},"
                    + "\"involvedObject\":{\"kind\":\"Service\",\"namespace\":\"default\",\"name\":\"plain\"},"
                    + "\"reason\":\"Test\",\"message\":\"from the agent\",\"type\":\"Normal\"}";
            default -> throw new IllegalArgumentException(kind);
        };
        return Files.writeString(Files.createTempFile(dir, kind, ".json"), json);
    }

    @Test
    void theAgentsPatchOfAPeerIsRefusedInKubeApiserversWords() throws Exception {
        Run refused = curl("agent.node-a", "PATCH", "/apis/juneau.loutres.me/v1alpha1/bgppeers/tor",
                "{\"spec\":{\"peerASN\":65009}}");
        assertThat(refused.out()).endsWith("\n403").contains("\"message\":\"bgppeers.juneau.loutres.me \\\"tor\\\" is"
                + " forbidden: User \\\"" + AGENT + "\\\" cannot patch resource \\\"bgppeers\\\" in API group"
                + " \\\"juneau.loutres.me\\\" at the cluster scope\"");
        // kubectl patch reads first, and is told so
        Run viaKubectl = kubectl("agent.node-a", "patch", "bgppeer", "tor", "--type=merge", "-p",
                "{\"spec\":{\"peerASN\":65009}}");
        assertThat(viaKubectl.err().trim()).isEqualTo("Error from server (Forbidden): bgppeers.juneau.loutres.me"
                + " \"tor\" is forbidden: User \"" + AGENT + "\" cannot get resource \"bgppeers\" in API group"
                + " \"juneau.loutres.me\" at the cluster scope");
        assertThat(kubectl("admin", "get", "bgppeer", "tor", "-o", "jsonpath={.spec.peerASN}").out())
                .isEqualTo("65000");
    }

    @Test
    void aRequestWithoutATokenIsUnauthorized() throws Exception {
        String out = curl(null, "GET", "/api/v1/namespaces/juneau-system/secrets/bgp-auth", null).out();
        assertThat(out).doesNotContain("s3cret").endsWith("\n401");
        assertThat(out).contains("\"reason\":\"Unauthorized\"", "\"message\":\"Unauthorized\"", "\"code\":401");
    }

    @Test
    void theAgentOfNodeACannotWriteNodeBsSessionStatus() throws Exception {
        // as the agent writes a status: PUT at the resourceVersion read
        ObjectNode session = (ObjectNode) JSON.readTree(current("/apis/juneau.loutres.me/v1alpha1/bgpsessions/"
                + "tor.node-b").toFile());
        session.putObject("status").put("state", "Established").put("lastError", "forged");
        Run forged = kubectl("agent.node-a", "replace", "--raw",
                "/apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-b/status", "-f",
                Files.writeString(dir.resolve("forged.json"), session.toString()).toString());
        assertThat(forged.code()).isNotZero();
        assertThat(forged.forbiddenByRbac()).as("RBAC has no opinion on nodes: the webhook refuses it").isFalse();
        assertThat(forged.err()).contains("denied the request", "is not the requesting agent's node \"node-a\"");
        // the same write about its own node goes through the same path
        Run own = kubectl("agent.node-a", "replace", "--raw",
                "/apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-a/status", "-f",
                current("/apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-a/status").toString());
        assertThat(own.code()).as(own.err()).isZero();
        assertThat(kubectl("admin", "get", "bgpsession", "tor.node-b", "-o", "jsonpath={.status.lastError}").out())
                .isEmpty();
    }

    /** A raw HTTPS request with the identity's token (null: none), like curl; out ends with the HTTP code. */
    private static Run curl(String who, String method, String path, String body) throws Exception {
        Path ca = dir.resolve("ca.crt");
        if (!Files.exists(ca)) {
            Files.writeString(ca, API.get().caPem());
        }
        List<String> cmd = new ArrayList<>(List.of("curl", "-s", "--cacert", ca.toString(), "-w", "\n%{http_code}",
                "-X", method));
        if (who != null) {
            String token = switch (who) {
                case "admin" -> Identities.ADMIN_TOKEN;
                case "controller" -> Identities.CONTROLLER_TOKEN;
                case "webhook" -> Identities.WEBHOOK_TOKEN;
                default -> API.get().agentToken(who.substring("agent.".length()));
            };
            cmd.addAll(List.of("-H", "Authorization: Bearer " + token));
        }
        if (body != null) {
            cmd.addAll(List.of("-H", "Content-Type: application/merge-patch+json", "--data", body));
        }
        cmd.add(API.get().url() + path);
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // shaped as kubectl's, so the table reads both alike
        boolean refused = out.endsWith("\n403") && out.contains("is forbidden: User");
        return new Run(p.exitValue(), out, refused ? out : err);
    }

    private static Run kubectl(String who, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", dir.resolve("admin"
                + (who.equals("admin") ? "" : "." + who)).toString(), "--request-timeout=20s"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File(
                "/dev/null")));
        // discovery cached once for all calls of this test (not in the user's home)
        pb.environment().put("KUBECACHEDIR", dir.resolve("kube-cache").toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("kubectl " + String.join(" ", args) + " did not finish in 60 s");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
