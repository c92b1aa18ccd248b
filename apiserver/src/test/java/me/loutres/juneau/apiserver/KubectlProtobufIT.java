package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl's typed writes, which it sends as protobuf ({@code application/vnd.kubernetes.protobuf}, asking
 * for protobuf first in the answer): {@code create secret generic}, {@code create configmap}, {@code create
 * namespace}, {@code create service loadbalancer}, {@code auth can-i} and a delete, then the objects read back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlProtobufIT {
    record Run(int code, String out, String err) {
    }

    @TempDir
    static Path dir;
    LocalApiServer server;
    Path kubeconfig;

    @BeforeAll
    void start() throws IOException {
        server = LocalApiServer.start(0);
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    void kubectlCreateSecretGenericAndConfigmapWorkAndReadBack() throws Exception {
        Run secret = kubectl("create", "secret", "generic", "bgp-password", "-n", "default",
                "--from-literal=password=s3cret", "--from-literal=empty=");
        assertThat(secret.code()).as(secret.err()).isZero();
        assertThat(secret.out()).contains("secret/bgp-password created");
        assertThat(kubectl("get", "secret", "bgp-password", "-o", "jsonpath={.data.password}").out())
                .isEqualTo("czNjcmV0");
        assertThat(kubectl("get", "secret", "bgp-password", "-o", "jsonpath={.type}").out()).isEqualTo("Opaque");

        Run cm = kubectl("create", "configmap", "settings", "--from-literal=mode=bgp", "--from-literal=blank=");
        assertThat(cm.code()).as(cm.err()).isZero();
        assertThat(cm.out()).contains("configmap/settings created");
        assertThat(kubectl("get", "configmap", "settings", "-o", "jsonpath={.data}").out())
                .isEqualTo("{\"blank\":\"\",\"mode\":\"bgp\"}");

        Run again = kubectl("create", "secret", "generic", "bgp-password", "--from-literal=password=x");
        assertThat(again.code()).isNotZero();
        assertThat(again.err()).contains("secrets \"bgp-password\" already exists");

        Run dry = kubectl("create", "configmap", "dry", "--from-literal=a=b", "--dry-run=server", "-o", "name");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out().trim()).isEqualTo("configmap/dry");
        assertThat(kubectl("get", "configmap", "dry").code()).isNotZero();
    }

    @Test
    void otherTypedWritesOfTheProductsKindsWork() throws Exception {
        Run ns = kubectl("create", "namespace", "lab");
        assertThat(ns.code()).as(ns.err()).isZero();
        Run svc = kubectl("create", "service", "loadbalancer", "web", "-n", "lab", "--tcp=80:8080");
        assertThat(svc.code()).as(svc.err()).isZero();
        assertThat(kubectl("get", "service", "web", "-n", "lab", "-o",
                "jsonpath={.spec.type} {.spec.ports[0].port} {.spec.ports[0].targetPort}").out())
                .isEqualTo("LoadBalancer 80 8080");
        Run sa = kubectl("create", "serviceaccount", "robot", "-n", "lab");
        assertThat(sa.code()).as(sa.err()).isZero();
        Run role = kubectl("create", "role", "reader", "-n", "lab", "--verb=get", "--resource=secrets");
        assertThat(role.code()).as(role.err()).isZero();
        Run can = kubectl("auth", "can-i", "create", "secrets", "-n", "lab");
        assertThat(can.out().trim()).as(can.err()).isEqualTo("yes");
        Run del = kubectl("delete", "serviceaccount", "robot", "-n", "lab");
        assertThat(del.code()).as(del.err()).isZero();
        assertThat(kubectl("get", "serviceaccount", "robot", "-n", "lab").code()).isNotZero();
    }

    Run kubectl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("kubectl " + String.join(" ", args) + " did not end in 60 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
