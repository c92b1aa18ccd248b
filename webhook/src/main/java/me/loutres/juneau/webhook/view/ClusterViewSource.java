package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ClusterView;

/** Where the webhook's cluster view comes from: a cluster (informers) or a file snapshot (offline). */
public sealed interface ClusterViewSource {

    /** An opened view: the view, whether it can be trusted yet, and what to close on stop. */
    record Opened(ClusterView view, BooleanSupplier synced, AutoCloseable closer) {
    }

    /** Opens the view; the exception message is one line naming the input and the problem. */
    Opened open() throws IOException;

    /** {@code --cluster-state FILE}: an immutable snapshot from YAML ({@code kubectl get -o yaml} output). */
    record StateFile(Path file) implements ClusterViewSource {
        @Override
        public Opened open() throws IOException {
            ClusterView view = ClusterStateFiles.load(file);
            return new Opened(view, () -> true, () -> { });
        }
    }

    /** {@code --kubeconfig FILE}: informers through a client built from that file (closed on stop). */
    record Kubeconfig(Path file) implements ClusterViewSource {
        @Override
        public Opened open() throws IOException {
            String content;
            try {
                content = Files.readString(file);
            } catch (IOException e) {
                throw new IOException("cannot read the kubeconfig " + file + " (" + e.getClass().getSimpleName() + ")");
            }
            Config config;
            try {
                config = Config.fromKubeconfig(content);
            } catch (RuntimeException e) {
                throw new IOException("the kubeconfig " + file + " cannot be used: " + e.getMessage());
            }
            return informers(new KubernetesClientBuilder().withConfig(config).build(), true);
        }
    }

    /** Neither flag: the in-cluster service account (or the usual kubeconfig lookup), like kubectl. */
    record InCluster() implements ClusterViewSource {
        @Override
        public Opened open() {
            return informers(new KubernetesClientBuilder().build(), true);
        }
    }

    /**
     * A client the caller owns and closes (the demo's embedded API server, tests); cache misses are read with
     * {@code missLookup} (null: a GET through the client).
     */
    record Client(KubernetesClient client, MissLookup missLookup) implements ClusterViewSource {
        public Client(KubernetesClient client) {
            this(client, null);
        }

        @Override
        public Opened open() {
            InformerClusterView view = InformerClusterView.start(client,
                    missLookup == null ? MissLookup.api(client) : missLookup);
            return new Opened(view, view::synced, view::close);
        }
    }

    /** A ready-made view, always synced (tests, embedding). */
    record Fixed(ClusterView view) implements ClusterViewSource {
        @Override
        public Opened open() {
            return new Opened(view, () -> true, () -> { });
        }
    }

    private static Opened informers(KubernetesClient client, boolean ownsClient) {
        InformerClusterView view = InformerClusterView.start(client);
        return new Opened(view, view::synced, () -> {
            view.close();
            if (ownsClient) {
                client.close();
            }
        });
    }
}
