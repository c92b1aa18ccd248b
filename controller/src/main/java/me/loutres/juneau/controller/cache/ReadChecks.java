package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.view.KubeReader;

/**
 * The shared reader's verdict ({@link KubeReader#check}: the rules the webhook, {@code validate} and the agent read
 * by) on the typed objects the informers hand over, computed once per version of an object: it re-serializes the
 * object, so it runs when a (uid, resourceVersion) is first asked about and is remembered until the next version.
 * A reconcile of an unchanged object costs one map lookup, never a serialization.
 *
 * <p>The controller's own writes are {@linkplain #trust trusted}: the planner built their content from objects that
 * read cleanly, so the version the API server answers with needs no check (the watch event of that version then
 * finds it remembered).
 */
public final class ReadChecks {
    /** The verdict on one version of an object. */
    private record Verdict(String uid, String resourceVersion, Optional<String> problem) {
        boolean of(HasMetadata o) {
            return Objects.equals(uid, o.getMetadata().getUid())
                    && Objects.equals(resourceVersion, o.getMetadata().getResourceVersion());
        }
    }

    /** By kind, then {@code name} (cluster-scoped) or {@code namespace/name}: a lookup of a cluster-scoped object allocates nothing. */
    private final ConcurrentHashMap<Class<?>, ConcurrentHashMap<String, Verdict>> verdicts = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();

    /** The problem of this object as the shared reader sees it, or empty when it reads cleanly. */
    public Optional<String> problem(HasMetadata o) {
        if (o == null || o.getMetadata() == null) {
            return o == null ? Optional.empty() : KubeReader.check(o);
        }
        String key = key(o);
        Verdict known = of(o).get(key);
        if (known != null && known.of(o)) {
            return known.problem();
        }
        checks.incrementAndGet();
        Optional<String> problem = KubeReader.check(o);
        if (o.getMetadata().getResourceVersion() != null) {
            of(o).put(key, new Verdict(o.getMetadata().getUid(), o.getMetadata().getResourceVersion(), problem));
        }
        return problem;
    }

    /** This version was written by the controller itself: it reads cleanly. */
    public void trust(HasMetadata o) {
        if (o != null && o.getMetadata() != null && o.getMetadata().getResourceVersion() != null) {
            of(o).put(key(o), new Verdict(o.getMetadata().getUid(), o.getMetadata().getResourceVersion(),
                    Optional.empty()));
        }
    }

    /** The object is gone: its verdict with it. */
    public void forget(HasMetadata o) {
        if (o != null && o.getMetadata() != null) {
            of(o).remove(key(o));
        }
    }

    /** How many objects were checked (serialized) so far: one per version asked about, own writes excepted. */
    public long checks() {
        return checks.get();
    }

    private ConcurrentHashMap<String, Verdict> of(HasMetadata o) {
        return verdicts.computeIfAbsent(o.getClass(), c -> new ConcurrentHashMap<>());
    }

    private static String key(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null ? String.valueOf(o.getMetadata().getName()) : ns + "/" + o.getMetadata().getName();
    }
}
