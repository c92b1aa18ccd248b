package me.loutres.juneau.runtime;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.util.Objects;

/**
 * fabric8's LeaseLock, writing the Lease with an update (PUT) at the resourceVersion last read instead of a
 * merge patch: the same optimistic lock, and the controller's Role needs only get, create and update on
 * leases — the verbs every Kubernetes leader-election client uses.
 */
final class UpdatingLeaseLock extends LeaseLock {
    private final String namespace;
    private final String name;
    private final LeaseReads reads;
    private Lease last;

    UpdatingLeaseLock(String namespace, String name, String identity, LeaseReads reads) {
        super(namespace, name, identity);
        this.namespace = namespace;
        this.name = name;
        this.reads = reads;
    }

    @Override
    public synchronized LeaderElectionRecord get(KubernetesClient client) {
        try {
            last = client.leases().inNamespace(namespace).withName(name).get();
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
        last = client.resource(toResource(record, getObjectMeta(null))).create();
    }

    @Override
    public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
        Objects.requireNonNull(last, "get or create must be called first");
        last = client.resource(toResource(record, getObjectMeta(last.getMetadata().getResourceVersion()))).update();
    }
}
