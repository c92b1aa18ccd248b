package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    /**
     * Writes on their way, by key (guarded by {@code this}): the watch event of a write often arrives before the
     * write's answer, when nothing tells it from someone else's change yet, so an event of the key waits for it.
     */
    private final Map<String, Flight> flights = new HashMap<>();
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

    /** A write of the key is about to be sent; {@link #wrote} must follow, with null when it failed. */
    public synchronized void writing(String key) {
        flights.computeIfAbsent(key, k -> new Flight()).writes++;
    }

    /**
     * The server answered a write of the key with {@code object} (null: the write failed). Events of the key that
     * waited for it are routed now, but for the echoes of this write.
     */
    public void wrote(String key, T object) {
        List<Runnable> release;
        synchronized (this) {
            remember(key, object);
            release = landed(key, object == null || object.getMetadata() == null ? null
                    : object.getMetadata().getResourceVersion());
        }
        release.forEach(Runnable::run);
    }

    private void remember(String key, T object) {
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

    /** Ends one write of the key: the held events to route now (none while another write of it is on its way). */
    private List<Runnable> landed(String key, String ours) {
        Flight f = flights.get(key);
        if (f == null) {
            return List.of();
        }
        f.writes--;
        f.held.removeIf(h -> ours != null && notNewer(h.version(), ours));
        if (f.writes > 0) {
            return List.of();
        }
        flights.remove(key);
        return f.held.stream().map(Held::route).toList();
    }

    /**
     * The informer delivered this version: {@code route} runs now, later (when it came while a write of the key was
     * on its way: once that write is answered), or never, when it is only the echo of the controller's own write
     * ({@link #observed}).
     */
    public void delivered(String key, T fromInformer, Runnable route) {
        synchronized (this) {
            if (observed(key, fromInformer)) {
                return;
            }
            Flight f = flights.get(key);
            if (f != null) {
                f.held.add(new Held(fromInformer.getMetadata().getResourceVersion(), route));
                return;
            }
        }
        route.run();
    }

    /**
     * The informer delivered this version of the object. True when it is the echo of the controller's own write: the
     * version it wrote last, or an older one. A write carries the resourceVersion it was based on, so no one else's
     * version lies between that base and ours; an older version is one the controller read or wrote before, and
     * the pass that wrote ours already looked at it (its event re-queues nothing new). False when nothing is
     * pending for the key (the event may have overtaken the write's response: then it is handled as anyone's).
     */
    public boolean observed(String key, T fromInformer) {
        String seen = fromInformer.getMetadata().getResourceVersion();
        boolean[] echo = {false};
        written.computeIfPresent(key, (k, w) -> {
            String ours = w.getMetadata().getResourceVersion();
            echo[0] = notNewer(seen, ours);
            return caughtUp(seen, ours) ? null : w;
        });
        return echo[0];
    }

    /** {@code seen} is {@code ours} or older; unknown when either is not a number, unless they are equal. */
    static boolean notNewer(String seen, String ours) {
        if (seen == null || ours == null) {
            return false;
        }
        if (seen.equals(ours)) {
            return true;
        }
        try {
            return Long.parseLong(seen) <= Long.parseLong(ours);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static boolean caughtUp(String seen, String ours) {
        try {
            return Long.parseLong(seen) >= Long.parseLong(ours);
        } catch (NumberFormatException | NullPointerException e) {
            return true;
        }
    }

    private static final class Flight {
        int writes;
        final List<Held> held = new ArrayList<>();
    }

    private record Held(String version, Runnable route) {
    }

    public void forget(String key) {
        written.remove(key);
    }

    public int size() {
        return written.size();
    }
}
