package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the controller itself wrote and its informer has not delivered yet. A reconcile that starts between a
 * write and its watch event reads the written object instead of the older cached one, so it does not redo the
 * write against a stale resourceVersion (a certain 409). The entry goes as soon as the informer shows the
 * written resourceVersion (events arrive in order, so anything before it is older), when the object is
 * deleted, or when a write of the key conflicts (the informer relisted and skipped our version).
 */
public final class RecentWrites<T extends HasMetadata> {
    private final ConcurrentHashMap<String, T> written = new ConcurrentHashMap<>();

    public T read(String key, T cached) {
        T w = written.get(key);
        return w != null ? w : cached;
    }

    public void wrote(String key, T object) {
        if (object != null && object.getMetadata() != null && object.getMetadata().getResourceVersion() != null) {
            written.put(key, object);
        }
    }

    /** The informer delivered this version of the object. */
    public void observed(String key, T fromInformer) {
        String rv = fromInformer.getMetadata().getResourceVersion();
        written.computeIfPresent(key, (k, w) -> Objects.equals(w.getMetadata().getResourceVersion(), rv) ? null : w);
    }

    public void forget(String key) {
        written.remove(key);
    }

    public int size() {
        return written.size();
    }
}
