package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's garbage collector and namespace controller, in-process ("Garbage Collection",
 * "Owners and Dependents"): when an owner is gone, each dependent whose owners are all gone is deleted in the
 * background (its own finalizers are honoured: it is only marked for deletion), a dependent with a remaining
 * owner just loses the dangling reference, and an owner deleted in the foreground is removed once its last
 * dependent is gone. It writes through the same path as any client, under the garbage collector's identity, so
 * the admission webhooks judge its deletes as in a cluster.
 */
final class GarbageCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    private static final String FOREGROUND = "foregroundDeletion";

    private sealed interface Task permits OwnerGone, OwnerCheck, NamespaceGone, ForegroundOwner {
    }

    private record ForegroundOwner(String uid) implements Task {
    }

    private record OwnerGone(String uid) implements Task {
    }

    private record OwnerCheck(String uid) implements Task {
    }

    private record NamespaceGone(String name, int round) implements Task {
    }

    private final Operations ops;
    private final Store store;
    private final Registry registry;
    private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
    private final Thread worker;
    private volatile boolean running = true;

    GarbageCollector(Operations ops, Registry registry) {
        this.ops = ops;
        this.store = ops.store();
        this.registry = registry;
        store.addListener(this::onEvent);
        ops.onNamespaceTerminating(ns -> queue.add(new NamespaceGone(ns, 0)));
        worker = new Thread(this::run, "local-apiserver-garbage-collector");
        worker.setDaemon(true);
        worker.start();
    }

    private void onEvent(Store.Event e) {
        JsonNode meta = e.object().path("metadata");
        if (e.kind().equals(Store.DELETED)) {
            queue.add(new OwnerGone(meta.path("uid").asText()));
            for (JsonNode owner : meta.path("ownerReferences")) {
                queue.add(new OwnerCheck(owner.path("uid").asText())); // a foreground owner may be done now
            }
        } else {
            if (meta.hasNonNull("deletionTimestamp") && meta.path("finalizers").toString().contains(FOREGROUND)) {
                queue.add(new ForegroundOwner(meta.path("uid").asText()));
            }
            for (JsonNode owner : meta.path("ownerReferences")) {
                if (store.byUid(owner.path("uid").asText()) == null) {
                    queue.add(new OwnerGone(owner.path("uid").asText())); // created with an absent owner
                }
            }
        }
    }

    private void run() {
        while (running) {
            try {
                Task t = queue.poll(200, TimeUnit.MILLISECONDS);
                if (t == null) {
                    continue;
                }
                if (t instanceof OwnerGone g) {
                    ownerGone(g.uid());
                } else if (t instanceof OwnerCheck c) {
                    ownerCheck(c.uid());
                } else if (t instanceof ForegroundOwner f) {
                    foreground(f.uid());
                } else if (t instanceof NamespaceGone n) {
                    namespaceGone(n);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.warn("garbage collection step failed: {}", e.toString());
            }
        }
    }

    private void ownerGone(String uid) {
        if (store.byUid(uid) != null) {
            return; // the owner exists (again, or still): nothing to collect
        }
        Caller gc = Caller.internal(Identities.garbageCollector());
        for (Store.Ref ref : store.dependents(uid)) {
            ObjectNode dependent = store.get(ref.type(), ref.namespace(), ref.name());
            if (dependent == null) {
                continue;
            }
            boolean otherOwnerLives = false;
            for (JsonNode o : dependent.path("metadata").path("ownerReferences")) {
                if (!o.path("uid").asText().equals(uid) && store.byUid(o.path("uid").asText()) != null) {
                    otherOwnerLives = true;
                }
            }
            try {
                if (otherOwnerLives) {
                    ops.modify(gc, ref.type(), ref.namespace(), ref.name(), null,
                            live -> Operations.withoutOwner(live, uid), false, false);
                } else if (!dependent.path("metadata").hasNonNull("deletionTimestamp")) {
                    ops.delete(gc, ref.type(), ref.namespace(), ref.name(),
                            new Operations.DeleteOptions("Background", null, null));
                }
            } catch (ApiException e) {
                if (!e.reason().equals("NotFound")) {
                    LOG.info("garbage collector could not delete {} {}/{}: {}", ref.type().groupResource(),
                            ref.namespace(), ref.name(), e.getMessage());
                }
            }
        }
    }

    /** Foreground deletion: the dependents go first (the owner waits with its foregroundDeletion finalizer). */
    private void foreground(String uid) {
        Caller gc = Caller.internal(Identities.garbageCollector());
        for (Store.Ref ref : store.dependents(uid)) {
            ObjectNode dependent = store.get(ref.type(), ref.namespace(), ref.name());
            if (dependent == null || dependent.path("metadata").hasNonNull("deletionTimestamp")) {
                continue;
            }
            try {
                ops.delete(gc, ref.type(), ref.namespace(), ref.name(),
                        new Operations.DeleteOptions("Background", null, null));
            } catch (ApiException e) {
                if (!e.reason().equals("NotFound")) {
                    LOG.info("garbage collector could not delete {} {}/{}: {}", ref.type().groupResource(),
                            ref.namespace(), ref.name(), e.getMessage());
                }
            }
        }
        ownerCheck(uid);
    }

    private void ownerCheck(String uid) {
        Store.Ref ref = store.byUid(uid);
        if (ref == null || !store.dependents(uid).isEmpty()) {
            return;
        }
        ObjectNode owner = store.get(ref.type(), ref.namespace(), ref.name());
        if (owner == null || !owner.path("metadata").hasNonNull("deletionTimestamp")) {
            return;
        }
        boolean foreground = false;
        for (JsonNode f : owner.path("metadata").path("finalizers")) {
            foreground |= f.asText().equals(FOREGROUND);
        }
        if (foreground) {
            try {
                ops.modify(Caller.internal(Identities.garbageCollector()), ref.type(), ref.namespace(), ref.name(),
                        null, live -> Operations.withoutFinalizer(live, FOREGROUND), false, false);
            } catch (ApiException e) {
                LOG.info("garbage collector could not finish the foreground deletion of {}: {}", ref.name(),
                        e.getMessage());
            }
        }
    }

    /** Deletes a terminating namespace's content; the namespace goes once nothing is left in it. */
    private void namespaceGone(NamespaceGone task) throws InterruptedException {
        Caller nc = Caller.internal(Identities.namespaceController());
        boolean empty = true;
        for (ResourceType type : registry.all()) {
            if (!type.namespaced() || !type.verbs().contains("delete")) {
                continue;
            }
            var snapshot = store.list(type, task.name(), java.util.Map.of(), o -> true, null, 0);
            for (ObjectNode o : snapshot.items()) {
                empty = false;
                if (o.path("metadata").hasNonNull("deletionTimestamp")) {
                    continue;
                }
                try {
                    ops.delete(nc, type, task.name(), o.path("metadata").path("name").asText(),
                            new Operations.DeleteOptions("Background", null, null));
                } catch (ApiException e) {
                    if (!e.reason().equals("NotFound")) {
                        LOG.info("namespace controller could not delete {}/{}: {}", task.name(),
                                o.path("metadata").path("name").asText(), e.getMessage());
                    }
                }
            }
        }
        ResourceType nsType = ops.namespaces();
        if (empty) {
            try {
                store.delete(nsType, null, task.name(), null);
            } catch (ApiException e) {
                // already gone
            }
        } else if (running) {
            Thread.sleep(Math.min(1000, 50L * (task.round() + 1)));
            queue.add(new NamespaceGone(task.name(), task.round() + 1));
        }
    }

    @Override
    public void close() {
        running = false;
        worker.interrupt();
    }
}
