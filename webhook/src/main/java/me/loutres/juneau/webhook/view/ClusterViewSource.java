package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ClusterView;

/** Where the webhook's cluster view comes from: a cluster (informers) or a file snapshot (offline). */
public sealed interface ClusterViewSource {

    /**
     * An opened view: the view, whether it can be trusted yet, what of it stopped for good (liveness: only a restart
     * helps), and what to close on stop.
     */
    record Opened(ClusterView view, BooleanSupplier synced, Supplier<List<String>> stopped, AutoCloseable closer) {
        /** A view that cannot stop: a file snapshot, a fixed view. */
        public static Opened fixed(ClusterView view) {
            return new Opened(view, () -> true, List::of, () -> { });
        }
    }

    /** Opens the view; the exception message is one line naming the input and the problem. */
    Opened open() throws IOException;

    /** {@code --cluster-state FILE}: an immutable snapshot from YAML ({@code kubectl get -o yaml} output). */
    record StateFile(Path file) implements ClusterViewSource {
        @Override
        public Opened open() throws IOException {
            return Opened.fixed(ClusterStateFiles.load(file));
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
            return informers(viewClient(config), true);
        }
    }

    /** Neither flag: the in-cluster service account (or the usual kubeconfig lookup), like kubectl. */
    record InCluster() implements ClusterViewSource {
        @Override
        public Opened open() {
            return informers(viewClient(Config.autoConfigure(null)), true);
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
            return new Opened(view, view::synced, view::stopped, view::close);
        }
    }

    /** A ready-made view, always synced (tests, embedding). */
    record Fixed(ClusterView view) implements ClusterViewSource {
        @Override
        public Opened open() {
            return Opened.fixed(view);
        }
    }

    /**
     * The client of a view we own. A request is retried once, not ten times over 100 s: the informers retry with
     * their own backoff, and a failure reaches the view (and the log) within a second instead of minutes.
     */
    static KubernetesClient viewClient(Config config) {
        config.setRequestRetryBackoffLimit(REQUEST_RETRIES);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    int REQUEST_RETRIES = 1;

    private static Opened informers(KubernetesClient client, boolean ownsClient) {
        InformerClusterView view = InformerClusterView.start(client);
        return new Opened(view, view::synced, view::stopped, () -> {
            view.close();
            if (ownsClient) {
                client.close();
            }
        });
    }
}
