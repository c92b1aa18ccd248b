package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What the controller itself wrote and its informer has not delivered yet. A reconcile that starts between a
 * write and its watch event reads the written object instead of the older cached one, so it does not redo the
 * write against a stale resourceVersion (a certain 409).
 *
 * <p>This is only an optimisation; a wrong guess costs one 409 and a retry, never a wrong write, because every
 * write carries the resourceVersion it is based on. An entry goes as soon as the informer delivers a version at
 * least as new (resourceVersions of etcd-backed servers are increasing integers; when one is not, any delivered
 * version ends the entry), when the object is deleted, or when a write of the key conflicts.
 */
public final class RecentWrites<T extends HasMetadata> {
    private final ConcurrentHashMap<String, T> written = new ConcurrentHashMap<>();
    private final Function<String, T> cached;
    private final java.util.function.Consumer<T> onWrote;

    /** @param cached the informer cache's object of a key (the informer updates it before it calls handlers) */
    public RecentWrites(Function<String, T> cached) {
        this(cached, o -> { });
    }

    /** @param onWrote hears every version the controller wrote (e.g. to trust it without reading it again) */
    public RecentWrites(Function<String, T> cached, java.util.function.Consumer<T> onWrote) {
        this.cached = cached;
        this.onWrote = onWrote;
    }

    public T read(String key, T cached) {
        T w = written.get(key);
        return w != null ? w : cached;
    }

    public void wrote(String key, T object) {
        if (object == null || object.getMetadata() == null || object.getMetadata().getResourceVersion() == null) {
            return;
        }
        onWrote.accept(object);
        if (object.getMetadata().getDeletionTimestamp() != null
                && (object.getMetadata().getFinalizers() == null || object.getMetadata().getFinalizers().isEmpty())) {
            // the final object of a deletion (the update that removed the last finalizer): it is gone from the
            // server, and its DELETED event may already have passed, so nothing would ever clear this entry
            written.remove(key);
            return;
        }
        String ours = object.getMetadata().getResourceVersion();
        // the watch event can overtake the HTTP response: then the cache already has our version (or a newer one)
        // and no event is left to clear the entry. compute() orders this check with observed() on the same key.
        written.compute(key, (k, old) -> {
            T inCache = cached.apply(key);
            return inCache != null && caughtUp(inCache.getMetadata().getResourceVersion(), ours) ? null : object;
        });
    }

    /** The informer delivered this version of the object. */
    public void observed(String key, T fromInformer) {
        String seen = fromInformer.getMetadata().getResourceVersion();
        written.computeIfPresent(key, (k, w) -> caughtUp(seen, w.getMetadata().getResourceVersion()) ? null : w);
    }

    static boolean caughtUp(String seen, String ours) {
        try {
            return Long.parseLong(seen) >= Long.parseLong(ours);
        } catch (NumberFormatException | NullPointerException e) {
            return true;
        }
    }

    public void forget(String key) {
        written.remove(key);
    }

    public int size() {
        return written.size();
    }
}
