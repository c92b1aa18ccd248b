package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.api.v1alpha1.NodeNetworkSpec;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's NodeNetwork equal to what the node's kernel reports (docs/api-reference.md, NodeNetwork): read
 * every second from the kernel's files (agent/net/ProcNetwork: no netlink, no external binary; a reading is a few
 * small files) and at once after {@link #changed}; written only when the reading differs from what is stored, so a
 * change shows within 2 s and an idle node writes nothing. A failed write is tried again at the next reading.
 */
public final class NodeNetworkReporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeNetworkReporter.class);
    /** Between two readings: a change on the node is on the NodeNetwork within this plus a write. */
    public static final Duration PERIOD = Duration.ofSeconds(1);
    /** After an announcement, how long to let its siblings arrive (an address brings its prefix route). */
    static final Duration SETTLE = Duration.ofMillis(100);

    /** What the kernel reports now. */
    public interface Source {
        NodeNetworkStatus read() throws IOException;
    }

    private final KubernetesClient client;
    private final String node;
    private final Source source;
    private final Object signal = new Object();
    private final AtomicLong writes = new AtomicLong();
    private boolean dirty;
    private volatile boolean closed;
    private NodeNetworkStatus written;
    private Thread thread;

    public NodeNetworkReporter(KubernetesClient client, String node, Source source) {
        this.client = client;
        this.node = node;
        this.source = source;
    }

    /** Starts the loop; the first reading is written at once (unless it is what is stored). */
    public NodeNetworkReporter start() {
        thread = new Thread(this::loop, "juneau-agent-node-network");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    /** A change may have happened: read again now. */
    public void changed() {
        synchronized (signal) {
            dirty = true;
            signal.notifyAll();
        }
    }

    /** Writes of the NodeNetwork made so far (create and status updates). */
    public long writes() {
        return writes.get();
    }

    private void loop() {
        while (!closed) {
            try {
                turn();
                synchronized (signal) {
                    long until = System.nanoTime() + PERIOD.toNanos();
                    while (!dirty && !closed) {
                        long left = until - System.nanoTime();
                        if (left <= 0) {
                            break;
                        }
                        signal.wait(Math.max(1, left / 1_000_000));
                    }
                    if (dirty) {
                        dirty = false;
                        signal.wait(SETTLE.toMillis());
                        dirty = false;
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("NodeNetwork {}: {}", node, e.toString());
            }
        }
    }

    /** One reading, and a write when it differs from the stored status. */
    void turn() {
        NodeNetworkStatus now;
        try {
            now = source.read();
        } catch (IOException e) {
            LOG.warn("NodeNetwork {}: cannot read the node's interfaces and routes: {}", node, e.getMessage());
            return;
        }
        if (Objects.equals(now, written)) {
            return;
        }
        try {
            NodeNetwork stored = client.resources(NodeNetwork.class).withName(node).get();
            if (stored == null) {
                NodeNetwork created = new NodeNetwork();
                created.setMetadata(new ObjectMetaBuilder().withName(node).build());
                created.setSpec(NodeNetworkSpec.of(node));
                stored = client.resources(NodeNetwork.class).resource(created).create();
                writes.incrementAndGet();
            } else if (Objects.equals(now, stored.getStatus())) {
                written = now; // a restarted agent finds its last report current: nothing to write
                return;
            }
            stored.setStatus(now);
            client.resources(NodeNetwork.class).resource(stored).updateStatus();
            writes.incrementAndGet();
            written = now;
            LOG.info("NodeNetwork {}: {} interface(s), gateways {}", node, now.getInterfaces().size(),
                    now.getGateways());
        } catch (KubernetesClientException e) {
            LOG.warn("NodeNetwork {} not written: {}", node, e.getMessage());
        }
    }

    @Override
    public void close() {
        closed = true;
        changed();
        if (thread != null) {
            thread.interrupt();
        }
    }
}
