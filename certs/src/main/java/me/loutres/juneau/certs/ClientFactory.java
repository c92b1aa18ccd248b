package me.loutres.juneau.certs;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** How the commands get an API client; tests hand in one connected to a mock server. */
@FunctionalInterface
public interface ClientFactory {
    /** @param kubeconfig a kubeconfig file, or null for the usual discovery (in-cluster, then ~/.kube/config) */
    KubernetesClient create(Path kubeconfig) throws UsageException;

    ClientFactory DEFAULT = kubeconfig -> {
        if (kubeconfig == null) {
            return new KubernetesClientBuilder().build();
        }
        if (!Files.isReadable(kubeconfig)) {
            throw new UsageException("--kubeconfig " + kubeconfig + ": file not found or not readable");
        }
        try {
            Config config = Config.fromKubeconfig((File) kubeconfig.toFile());
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (RuntimeException e) {
            throw new UsageException("--kubeconfig " + kubeconfig + ": not a usable kubeconfig ("
                    + e.getClass().getSimpleName() + ")");
        }
    };
}
