package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ControllerOptions;
import me.loutres.juneau.controller.JuneauController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code juneau up --no-controller} (README, "Running controllers beside `up`"): the API server and the webhook
 * only, and one kubeconfig per component identity beside the admin one, so a controller started with
 * {@code FILE.controller} acts as the controller's service account does in a cluster — and the admin's does not.
 */
class UpNoControllerMockTest {
    @TempDir
    Path dir;

    @Test
    void upWithoutAControllerWritesAKubeconfigPerIdentityAndAControllerBesideItAllocates() throws Exception {
        Path admin = dir.resolve("local.kubeconfig");
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        CountDownLatch stop = new CountDownLatch(1);
        UpCommand up = new UpCommand(new PrintStream(output, true, StandardCharsets.UTF_8), stop);
        Thread upThread = new Thread(() -> new picocli.CommandLine(up).execute("--kubeconfig-out", admin.toString(),
                "--no-controller"), "juneau-up-under-test");
        upThread.start();
        JuneauController controller = null;
        try {
            until(Duration.ofSeconds(60), () -> output.toString(StandardCharsets.UTF_8).contains("Press Ctrl-C"));
            String said = output.toString(StandardCharsets.UTF_8);
            Path forController = dir.resolve("local.kubeconfig.controller");
            Path forAgent = dir.resolve("local.kubeconfig.agent.node-a");
            assertThat(said).contains("controller  none (--no-controller)")
                    .contains(forController.toAbsolutePath() + " (controller)")
                    .contains(forAgent.toAbsolutePath() + " (agent of node-a)");
            for (Path p : List.of(admin, forController, forAgent)) {
                assertThat(Files.getPosixFilePermissions(p)).as("%s", p)
                        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
            }

            try (KubernetesClient asAdmin = client(admin)) {
                assertThat(asAdmin.leases().inNamespace("juneau-system").list().getItems())
                        .as("no controller campaigns").isEmpty();
                AddressPool pool = new AddressPool();
                pool.getMetadata().setName("beside-pool");
                pool.setSpec(new AddressPoolSpec("bgp", List.of("10.93.0.0/29")));
                asAdmin.resource(pool).create();
                ExternalNetwork net = new ExternalNetwork();
                net.getMetadata().setName("beside-net");
                net.setSpec(new ExternalNetworkSpec("bgp", List.of("beside-pool")));
                asAdmin.resource(net).create();
                Service svc = new ServiceBuilder().withNewMetadata().withName("web").withNamespace("default")
                        .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "beside-net").endMetadata()
                        .withNewSpec().withType("LoadBalancer")
                        .withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS).addNewPort().withPort(80)
                        .endPort().endSpec().build();
                asAdmin.resource(svc).create();

                // the admin identity may not write a ServiceLoadBalancer: only the controller's may
                ServiceLoadBalancer slb = new ServiceLoadBalancer();
                slb.getMetadata().setName("web");
                slb.getMetadata().setNamespace("default");
                KubernetesClientException refused = org.junit.jupiter.api.Assertions.assertThrows(
                        KubernetesClientException.class,
                        () -> asAdmin.resources(ServiceLoadBalancer.class).inNamespace("default").resource(slb)
                                .create());
                assertThat(refused.getCode()).isEqualTo(403);

                controller = JuneauController.start(client(forController),
                        ControllerOptions.defaults("beside-1").withMetricsPort(-1));
                until(Duration.ofSeconds(60), () -> {
                    ServiceLoadBalancer written = asAdmin.resources(ServiceLoadBalancer.class).inNamespace("default")
                            .withName("web").get();
                    return written != null && written.getStatus() != null && written.getStatus().getVip() != null;
                });
                assertThat(asAdmin.resources(ServiceLoadBalancer.class).inNamespace("default").withName("web").get()
                        .getStatus().getVip()).isEqualTo("10.93.0.1");
            }
        } finally {
            if (controller != null) {
                controller.close();
            }
            stop.countDown();
            upThread.join(30_000);
        }
    }

    private static void until(Duration max, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("still not true after %s", max).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static KubernetesClient client(Path kubeconfig) throws java.io.IOException {
        return new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8))).build();
    }
}
