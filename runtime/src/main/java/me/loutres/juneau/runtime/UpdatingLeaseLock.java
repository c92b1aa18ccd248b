package me.loutres.juneau.runtime;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * fabric8's LeaseLock, writing the Lease with an update (PUT) at the resourceVersion last read instead of a
 * merge patch: the same optimistic lock, and the controller's Role needs only get, create and update on
 * leases — the verbs every Kubernetes leader-election client uses.
 *
 * <p>It also tells the term when a write succeeded ({@code written}, with the monotonic time the read before it
 * started: the renew time the Lease records is no earlier), and bounds each call of a leader by the time left in its
 * term ({@code budget}; null when not leading): a renew cannot hang past the moment the term expires anyway.
 */
final class UpdatingLeaseLock extends LeaseLock {
    private final String namespace;
    private final String name;
    private final LeaseReads reads;
    private final LongSupplier nanos;
    private final Supplier<Duration> budget;
    private final LongConsumer written;
    private Lease last;
    private long readStartedAt;
    private final String identity;

    UpdatingLeaseLock(String namespace, String name, String identity, LeaseReads reads) {
        this(namespace, name, identity, reads, System::nanoTime, () -> null, t -> {
        });
    }

    UpdatingLeaseLock(String namespace, String name, String identity, LeaseReads reads, LongSupplier nanos,
            Supplier<Duration> budget, LongConsumer written) {
        super(namespace, name, identity);
        this.namespace = namespace;
        this.name = name;
        this.reads = reads;
        this.nanos = nanos;
        this.budget = budget;
        this.written = written;
        this.identity = identity;
    }

    /**
     * Runs the call with a request timeout of the time left in the term, when there is an active one. A renewal
     * for a term that has run out is refused (the term never comes back; the replica campaigns again); a read or a
     * release (naming nobody: it only speeds a standby up, and the Lease's resourceVersion keeps it from undoing
     * anyone's take-over) runs with the client's own timeout.
     */
    private <T> T bounded(KubernetesClient client, Function<KubernetesClient, T> call, boolean renewal) {
        Duration left = budget.get();
        if (left == null) {
            return call.apply(client);
        }
        if (left.isZero() || left.isNegative()) {
            if (renewal) {
                throw new KubernetesClientException("the leadership term has run out; it is not renewed");
            }
            return call.apply(client);
        }
        return BoundedCalls.within(client, left, call);
    }

    @Override
    public synchronized LeaderElectionRecord get(KubernetesClient client) {
        readStartedAt = nanos.getAsLong();
        try {
            last = bounded(client, c -> c.leases().inNamespace(namespace).withName(name).get(), false);
        } catch (KubernetesClientException e) {
            // no HTTP status: the request never got an answer; 5xx: the server cannot serve it now
            if (e.getCode() <= 0 || e.getCode() >= 500) {
                reads.unreachable(e);
            } else {
                reads.answered();
            }
            throw e;
        }
        reads.answered();
        return last == null ? null : toRecord(last);
    }

    @Override
    public synchronized void create(KubernetesClient client, LeaderElectionRecord record) {
        last = bounded(client, c -> c.resource(toResource(record, getObjectMeta(null))).create(),
                identity.equals(record.getHolderIdentity()));
        wrote(record);
    }

    @Override
    public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
        Objects.requireNonNull(last, "get or create must be called first");
        String version = last.getMetadata().getResourceVersion();
        last = bounded(client, c -> c.resource(toResource(record, getObjectMeta(version))).update(),
                identity.equals(record.getHolderIdentity()));
        wrote(record);
    }

    /** A write that names this replica as the holder acquired or renewed the Lease (a release names nobody). */
    private void wrote(LeaderElectionRecord record) {
        if (identity.equals(record.getHolderIdentity())) {
            written.accept(readStartedAt);
        }
    }
}
