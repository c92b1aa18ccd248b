package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate -k} with the real kubectl (the renderer {@code kubectl apply -k} uses), and the same command in a
 * JVM whose PATH has no kubectl: one line that says what to do. About 5 s.
 */
class ValidateKustomizeIT {

    @Test
    void aKustomizationIsRenderedAndItsObjectsValidated(@TempDir Path dir) throws Exception {
        if (new Kustomize(System.getenv("PATH")).kubectl().isEmpty()) {
            fail("kubectl is not on the PATH: validate -k renders with kubectl kustomize; install kubectl");
        }
        Path base = Files.createDirectories(dir.resolve("base"));
        Files.writeString(base.resolve("kustomization.yaml"), "resources:\n  - pool.yaml\n  - service.yaml\n");
        Files.writeString(base.resolve("pool.yaml"), """
                apiVersion: juneau.loutres.me/v1alpha1
                kind: AddressPool
                metadata:
                  name: pool
                spec:
                  advertiseMode: bgp
                  addresses: ["198.18.0.0/28"]
                ---
                apiVersion: juneau.loutres.me/v1alpha1
                kind: ExternalNetwork
                metadata:
                  name: net
                spec:
                  type: bgp
                  addressPools: [pool]
                """);
        Files.writeString(base.resolve("service.yaml"), """
                apiVersion: v1
                kind: Service
                metadata:
                  name: web
                  annotations:
                    juneau.loutres.me/load-balancer-external-network: net
                spec:
                  type: LoadBalancer
                  loadBalancerClass: juneau.loutres.me/load-balancer
                  externalTrafficPolicy: Local
                  selector: {app: web}
                  ports: [{port: 80}]
                """);
        Path overlay = Files.createDirectories(dir.resolve("overlay"));
        Files.writeString(overlay.resolve("kustomization.yaml"), "resources:\n  - ../base\nnamespace: shop\n");
        CommandRun run = CommandRun.of("validate", "-k", overlay.toString());
        assertThat(run.exit()).as(run.transcript()).isZero();
        assertThat(run.out()).contains("service/web created [" + overlay + " (kubectl kustomize), document ")
                .contains("from AddressPool pool (ExternalNetwork net)").endsWith("3 accepted, 0 rejected\n");
        // what is validated is what kustomize rendered: the overlay's namespace
        CommandRun json = CommandRun.of("validate", "-k", overlay.toString(), "-o", "json");
        assertThat(json.out()).contains("\"namespace\" : \"shop\"");

        Files.writeString(overlay.resolve("kustomization.yaml"), "resources:\n  - ../missing\n");
        CommandRun failed = CommandRun.of("validate", "-k", overlay.toString());
        assertThat(failed.exit()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(failed.err().lines()).singleElement().asString().startsWith("error: " + overlay + ": kubectl kustomize failed: ");
    }

    @Test
    void withoutKubectlOnThePathTheErrorIsOneLineThatSaysWhatToDo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("kustomization.yaml"), "resources: []\n");
        String java = ProcessHandle.current().info().command().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "me.loutres.juneau.cli.Juneau", "validate", "-k", dir.toString());
        pb.environment().put("PATH", Files.createDirectories(dir.resolve("empty-bin")).toString());
        pb.redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("validate did not finish in 60 s");
        }
        String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        assertThat(err).isEqualTo("error: " + dir + ": kubectl is not on the PATH; -k renders with kubectl kustomize: "
                + "install kubectl, or render it another way and pipe it in: kustomize build " + dir + " | juneau validate -\n");
        assertThat(Files.readString(dir.resolve("out"))).isEqualTo("0 accepted, 0 rejected, 1 unreadable\n");
    }
}
