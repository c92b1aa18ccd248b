package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Reads each version of an object once: what a reading of one (uid, resourceVersion) gave is remembered until the
 * next version of that object, so a reconcile of an unchanged object costs one map lookup, not a serialization.
 * The controller, the agent and the webhook read the objects of their watches through this (docs/design.md).
 * Thread-safe.
 *
 * @param <V> what a reading gives
 */
public final class VersionMemo<V> {
    /** The reading of one version of an object. */
    private record Entry<V>(String uid, String resourceVersion, V value) {
        boolean of(ObjectMeta m) {
            return Objects.equals(uid, m.getUid()) && Objects.equals(resourceVersion, m.getResourceVersion());
        }
    }

    /** By kind, then {@code name} (cluster-scoped) or {@code namespace/name}. */
    private final ConcurrentHashMap<Class<?>, ConcurrentHashMap<String, Entry<V>>> entries = new ConcurrentHashMap<>();
    private final AtomicLong reads = new AtomicLong();

    /** What {@code reader} gives for this version of {@code o}, read once per version. */
    public <T extends HasMetadata> V read(T o, Function<? super T, V> reader) {
        return read(o, (x, earlier) -> reader.apply(x));
    }

    /**
     * As {@link #read(HasMetadata, Function)}; the reader is also given the reading of the previous version of the
     * same object (same uid), or null.
     */
    public <T extends HasMetadata> V read(T o, BiFunction<? super T, V, V> reader) {
        ObjectMeta m = o.getMetadata();
        if (m == null) {
            reads.incrementAndGet();
            return reader.apply(o, null);
        }
        Map<String, Entry<V>> ofKind = of(o);
        String key = key(m);
        Entry<V> known = ofKind.get(key);
        if (known != null && m.getResourceVersion() != null && known.of(m)) {
            return known.value();
        }
        reads.incrementAndGet();
        V value = reader.apply(o, known != null && Objects.equals(known.uid(), m.getUid()) ? known.value() : null);
        if (m.getResourceVersion() != null) {
            ofKind.put(key, new Entry<>(m.getUid(), m.getResourceVersion(), value));
        }
        return value;
    }

    /**
     * Reads every object of one kind as a watch holds it now (each new version once) and forgets the objects no
     * longer among them.
     *
     * @return the readings by key ({@code name} or {@code namespace/name}), in the objects' order
     */
    public <T extends HasMetadata> Map<String, V> readAll(Collection<? extends T> objects,
            BiFunction<? super T, V, V> reader) {
        Map<String, V> out = new LinkedHashMap<>();
        Set<String> present = new HashSet<>();
        Class<?> kind = null;
        for (T o : objects) {
            kind = o.getClass();
            String key = o.getMetadata() == null ? "" : key(o.getMetadata());
            present.add(key);
            out.put(key, read(o, reader));
        }
        if (kind != null) {
            entries.get(kind).keySet().retainAll(present);
        } else {
            entries.clear();
        }
        return out;
    }

    /** This version is known to read as {@code value} (e.g. the server's own write of it): no reading needed. */
    public void remember(HasMetadata o, V value) {
        if (o != null && o.getMetadata() != null && o.getMetadata().getResourceVersion() != null) {
            of(o).put(key(o.getMetadata()),
                    new Entry<>(o.getMetadata().getUid(), o.getMetadata().getResourceVersion(), value));
        }
    }

    /** The object is gone: its reading with it. */
    public void forget(HasMetadata o) {
        if (o != null && o.getMetadata() != null) {
            of(o).remove(key(o.getMetadata()));
        }
    }

    /** How many readings were made so far: one per version asked about, remembered ones excepted. */
    public long reads() {
        return reads.get();
    }

    private ConcurrentHashMap<String, Entry<V>> of(HasMetadata o) {
        return entries.computeIfAbsent(o.getClass(), c -> new ConcurrentHashMap<>());
    }

    /** {@code namespace/name}, or {@code name} for a cluster-scoped object ("" when even that is missing). */
    public static String key(ObjectMeta m) {
        String name = m.getName() == null ? "" : m.getName();
        return m.getNamespace() == null || m.getName() == null ? name : m.getNamespace() + "/" + name;
    }
}
