package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.Supplier;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.cache.RecentWrites;
import me.loutres.juneau.runtime.BoundedCalls;
import me.loutres.juneau.runtime.Term;

/**
 * Every write the controller makes goes through one of these five verbs, for any kind ({@link WrittenKind}): create,
 * update, updateStatus, mergePatch, delete. Each checks the leadership term first — its time, not a flag: a term
 * expires by itself at its renew deadline — and is bounded by the time left in it (the four writes are one request
 * each through {@link WireRequests}, a delete goes through fabric8's DSL and {@link BoundedCalls}); each write
 * of a tracked kind tells {@link RecentWrites} before it is sent and after it is answered, and a delete forgets the
 * key. Which verb a write needs is the caller's (a plan's {@code SlbWrite}) or a {@link Dependent}'s choice.
 *
 * <p>Each verb is safe on a real API server: creates, updates (PUT, statuses through the status subresource) carry
 * the resourceVersion they were read at, and merge patches of scalar fields carry it too when they are based on a
 * read, so a write based on a stale read fails with 409, the overlay forgets the key, and the key is retried from
 * fresh data. Nothing uses server-side apply or strategic merge patch; no merge patch touches a list (RFC 7386
 * replaces a whole list, which could undo a concurrent writer's entries).
 */
public final class KubeWriter {
    private final KubernetesClient client;
    private final WireRequests wire;
    private final WrittenKinds kinds;

    public KubeWriter(KubernetesClient client, ClusterCache cache) {
        this.client = client;
        this.wire = new WireRequests(client);
        this.kinds = WrittenKinds.of(cache);
    }

    /** The kinds this writer writes, with the overlays of the cache it was made with. */
    WrittenKinds kinds() {
        return kinds;
    }

    /** Forgets what was written for a key whose write conflicted: the next read comes from the informer. */
    public void conflicted(ServiceKey key) {
        kinds.slbs().recent().forget(key.toString());
        kinds.services().recent().forget(key.toString());
        kinds.arps().recent().forget(JuneauConstants.arpAdvertisementName(key.namespace(), key.name()));
    }

    <T extends HasMetadata> T create(Term term, WrittenKind<T> kind, T object) {
        return write(term, kind, object, () -> wire.create(term, kind, object));
    }

    /**
     * Replaces metadata and spec at the resourceVersion {@code object} carries. Removing the last finalizer of an
     * object being deleted deletes it: kube-apiserver answers 200 with the final object, which RecentWrites does not
     * keep.
     */
    <T extends HasMetadata> T update(Term term, WrittenKind<T> kind, T object) {
        return write(term, kind, object, () -> wire.update(term, kind, object));
    }

    /** Replaces the status through the status subresource, at the resourceVersion {@code body} carries. */
    <T extends HasMetadata> T updateStatus(Term term, WrittenKind<T> kind, T body) {
        return write(term, kind, body, () -> wire.updateStatus(term, kind, body));
    }

    /**
     * A JSON merge patch of {@code target} (only its kind, namespace and name are used; the patch is sent as is,
     * without reading the object first). The patch carries a resourceVersion when it is based on a read.
     */
    <T extends HasMetadata> T mergePatch(Term term, WrittenKind<T> kind, T target, String patch) {
        return write(term, kind, target, () -> wire.mergePatch(term, kind, target, patch));
    }

    /** Deletes the object of {@code object}'s name; the overlay forgets it first. */
    <T extends HasMetadata> void delete(Term term, WrittenKind<T> kind, T object) {
        term.ensureActive();
        if (kind.recent() != null) {
            kind.recent().forget(kind.key().apply(object));
        }
        BoundedCalls.within(client, term, c -> of(c, kind, object).withName(object.getMetadata().getName()).delete());
    }

    private <T extends HasMetadata> T write(Term term, WrittenKind<T> kind, T object, Supplier<T> request) {
        term.ensureActive();
        RecentWrites<T> recent = kind.recent();
        if (recent == null) {
            return request.get();
        }
        // told before it is sent and after it is answered (or failed), so its watch event is known for the echo it
        // is, whichever of the two arrives first
        String key = kind.key().apply(object);
        recent.writing(key);
        T written = null;
        try {
            written = request.get();
            return written;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                recent.forget(key); // what it holds is stale: the next read comes from the informer
            }
            throw e;
        } finally {
            recent.wrote(key, written);
        }
    }

    /**
     * Writes renew time {@code at} into the Lease {@code namespace/name} held by {@code identity} (created when
     * {@code current}, the cached copy, is null; else replaced at its resourceVersion): the controller's watch tick,
     * whose event coming back through the Lease watch shows that the watch has delivered everything written before
     * {@code at} (docs/operations.md, "Node liveness after an outage"). Only the verbs the leader-election Role grants
     * on Leases (create, update).
     */
    public void tick(Term term, String namespace, String name, String identity, java.time.Instant at,
            io.fabric8.kubernetes.api.model.coordination.v1.Lease current) {
        var kind = WrittenKind.untracked(io.fabric8.kubernetes.api.model.coordination.v1.Lease.class);
        var renew = at.truncatedTo(java.time.temporal.ChronoUnit.MICROS).atZone(java.time.ZoneOffset.UTC);
        if (current == null) {
            create(term, kind, new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder().withNewMetadata()
                    .withNamespace(namespace).withName(name).endMetadata().withNewSpec().withHolderIdentity(identity)
                    .withRenewTime(renew).endSpec().build());
        } else {
            update(term, kind, new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder(current).editSpec()
                    .withHolderIdentity(identity).withRenewTime(renew).endSpec().build());
        }
    }

    /**
     * Writes the status of a BGPSession of a dead node (docs/bgp.md, "When an agent dies"): the one write the
     * controller makes to a kind its agents own, fenced by the term as every write, at the resourceVersion the body
     * carries (a session its agent rewrote meanwhile answers 409 and stays as the agent says).
     */
    public me.loutres.juneau.api.v1alpha1.BGPSession deadNodeSessionStatus(Term term,
            me.loutres.juneau.api.v1alpha1.BGPSession body) {
        return updateStatus(term, WrittenKind.clusterScopedUntracked(me.loutres.juneau.api.v1alpha1.BGPSession.class),
                body);
    }

    /** The kind's objects in {@code object}'s namespace, or all of them for a cluster-scoped kind. */
    private static <T extends HasMetadata> NonNamespaceOperation<T, KubernetesResourceList<T>, Resource<T>> of(
            KubernetesClient c, WrittenKind<T> kind, T object) {
        var all = c.resources(kind.type());
        return kind.namespaced() ? all.inNamespace(object.getMetadata().getNamespace()) : all;
    }
}
