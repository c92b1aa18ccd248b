package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One kind of a {@link WatchedCache}: its informer and the reads of its store. Configure (indexers, store, handlers)
 * before the cache starts; {@link #relist} replaces the informer by a fresh one with the same configuration.
 *
 * @param <T> the kind's class
 */
public final class Watched<T extends HasMetadata> {
    private final WatchedCache cache;
    private final String kind;
    private final Supplier<SharedIndexInformer<T>> create;
    private final List<Map<String, Function<T, List<String>>>> indexers = new ArrayList<>();
    private final List<ResourceEventHandler<? super T>> handlers = new ArrayList<>();
    private Supplier<? extends ItemStore<T>> store;
    private volatile SharedIndexInformer<T> informer;
    /** Null: required. Else the line said when the API server does not serve the kind (404), which is then left out. */
    private String whenNotServed;
    private volatile boolean served = true;
    /** Since when (the cache's clock) this watch has been down, 0 while it watches. */
    private volatile long notWatchingSince;

    Watched(WatchedCache cache, String kind, Informable<T> source, long listLimit, long resyncMillis) {
        this.cache = cache;
        this.kind = kind;
        this.create = () -> (listLimit > 0 ? source.withLimit(listLimit) : source).runnableInformer(resyncMillis);
        this.informer = fresh();
    }

    private SharedIndexInformer<T> fresh() {
        SharedIndexInformer<T> i = create.get();
        if (store != null) {
            i.itemStore(store.get());
        }
        indexers.forEach(i::addIndexers);
        handlers.forEach(i::addEventHandler);
        i.exceptionHandler((started, t) -> cache.failed(this, t));
        return i;
    }

    /** The kind, as the log and the liveness probe name it. */
    public String kind() {
        return kind;
    }

    /** Indexes the objects by these keys (computed once per version); read with {@link #byIndex}. */
    public Watched<T> indexers(Map<String, Function<T, List<String>>> byName) {
        indexers.add(byName);
        informer.addIndexers(byName);
        return this;
    }

    /** Keeps the objects in stores made by {@code stores} (e.g. keeping less of each object). */
    public Watched<T> store(Supplier<? extends ItemStore<T>> stores) {
        this.store = stores;
        informer.itemStore(stores.get());
        return this;
    }

    /**
     * An API server that does not serve this kind (404) is not a failure: the kind is left out of synced, watching
     * and stopped, and {@code line} is logged once.
     */
    public Watched<T> optional(String line) {
        this.whenNotServed = line;
        return this;
    }

    /** Handlers are added before the cache starts so the initial list is delivered to them too. */
    public Watched<T> on(ResourceEventHandler<? super T> handler) {
        handlers.add(handler);
        informer.addEventHandler(handler);
        return this;
    }

    /** Runs {@code onChange} on every add, update and delete (level-based readers that look at the whole store). */
    public Watched<T> onChange(Runnable onChange) {
        return on(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                onChange.run();
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                onChange.run();
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                onChange.run();
            }
        });
    }

    /* reads of the store: never a call to the API server */

    /** The object of a key ({@code name}, or {@code namespace/name}), or null. */
    public T get(String key) {
        return key == null ? null : informer.getStore().getByKey(key);
    }

    public List<T> list() {
        return informer.getStore().list();
    }

    public List<String> keys() {
        return informer.getStore().listKeys();
    }

    public List<T> byIndex(String index, String value) {
        return informer.getIndexer().byIndex(index, value);
    }

    /** The informer itself (tests stop one to see liveness fail). */
    public SharedIndexInformer<T> informer() {
        return informer;
    }

    /**
     * Replaces the informer by a fresh one (a fresh list) and stops the old one: after an outage, a watch resumes
     * from its last resourceVersion without a list, so a store that came back with other contents (a restored one)
     * is only seen by listing afresh. The old store answers until the new one is synced.
     */
    public void relist() {
        SharedIndexInformer<T> stale = informer;
        informer = fresh();
        notWatchingSince = cache.now(); // a new watch opening, not an outage
        informer.start();
        stale.stop();
    }

    /** Since when (the cache's clock, ms) the watch has been down; 0 while it watches. */
    public long notWatchingSince() {
        return notWatchingSince;
    }

    boolean served() {
        return served;
    }

    boolean isOptional() {
        return whenNotServed != null;
    }

    /** Handles an informer failure that is the API server saying it does not serve the kind. */
    boolean notServed(Throwable t) {
        if (whenNotServed == null || !ApiConnection.notFound(t)) {
            return false;
        }
        if (served) {
            served = false;
            WatchedCache.LOG.info(whenNotServed);
        }
        return true;
    }

    CompletableFuture<Void> start(long now) {
        notWatchingSince = now;
        SharedIndexInformer<T> started = informer;
        started.stopped().whenComplete((v, t) -> cache.stoppedForGood(this, started, t));
        CompletableFuture<Void> f = started.start().toCompletableFuture();
        return whenNotServed == null ? f : f.handle((v, t) -> {
            if (t != null && served) {
                throw new java.util.concurrent.CompletionException(t);
            }
            return null;
        });
    }

    boolean hasSynced() {
        return informer.hasSynced();
    }

    /** Whether the informer watches; notes since when it does not. */
    boolean watching(long now) {
        boolean w = informer.isWatching();
        if (w) {
            notWatchingSince = 0;
        } else if (notWatchingSince == 0) {
            notWatchingSince = now;
        }
        return w;
    }

    boolean isWatching() {
        return informer.isWatching();
    }

    boolean stopped() {
        return informer.stopped().toCompletableFuture().isDone();
    }

    boolean isCurrent(SharedIndexInformer<?> i) {
        return informer == i;
    }

    void stop() {
        informer.stop();
    }
}
