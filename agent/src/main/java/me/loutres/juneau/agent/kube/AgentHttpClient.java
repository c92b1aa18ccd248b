package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.util.concurrent.TimeUnit;

/**
 * The agent's Kubernetes client: fabric8's vert.x client on one event loop. By default vert.x sizes its pools for a
 * server (two event loops per core, up to 20 worker and 20 internal blocking threads) and its blocked-thread checker
 * wakes every second; the agent holds a few watches and renews one Lease, so one loop carries it and the checker
 * looks every 10 s (BENCHMARKS.md, "Node agent: what one node pays"). Closing it closes the client, then the loop.
 */
public final class AgentHttpClient implements AutoCloseable {
    private final Vertx vertx;
    private final KubernetesClient client;

    private AgentHttpClient(Vertx vertx, KubernetesClient client) {
        this.vertx = vertx;
        this.client = client;
    }

    public static AgentHttpClient open(Config config) {
        Vertx vertx = newVertx();
        try {
            KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
                    .withHttpClientFactory(new VertxHttpClientFactory(vertx)).build();
            return new AgentHttpClient(vertx, client);
        } catch (RuntimeException e) {
            vertx.close();
            throw e;
        }
    }

    static VertxOptions options() {
        return new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1).setInternalBlockingPoolSize(1)
                .setUseDaemonThread(true)
                .setBlockedThreadCheckInterval(10).setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS)
                // as fabric8's own instance: no file cache, no class-path lookups (it serves no files)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
                        .setClassPathResolvingEnabled(false));
    }

    /** As fabric8 makes its own: the JDK's resolver (the node's resolv.conf), not netty's DNS client. */
    private static Vertx newVertx() {
        String was = System.getProperty("vertx.disableDnsResolver");
        System.setProperty("vertx.disableDnsResolver", "true");
        try {
            return Vertx.vertx(options());
        } finally {
            if (was == null) {
                System.clearProperty("vertx.disableDnsResolver");
            } else {
                System.setProperty("vertx.disableDnsResolver", was);
            }
        }
    }

    public KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS)
                    .exceptionally(e -> null).join();
        }
    }
}
