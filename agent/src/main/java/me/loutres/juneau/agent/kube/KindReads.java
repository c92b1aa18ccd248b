package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.runtime.watch.VersionMemo;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.UnreadableObjectException;

/**
 * The objects of one kind as a generic informer holds them, read into Juneau's class the one way every part of
 * Juneau reads objects ({@link me.loutres.juneau.view.KubeReader}), each version once. The agent watches its BGP
 * kinds generically because a typed informer that meets one malformed object (a field of the wrong type, written
 * around admission) fails its whole list and watch, and the node would stop seeing every other object of the kind.
 *
 * <p>A malformed object is skipped; when an earlier version of the same object (same uid) was readable, that one is
 * used instead, so a peer damaged in place keeps its session and routes as the cache keeps them through an API
 * server outage (docs/bgp.md). Not thread-safe by itself: {@link NodeSources} serialises the calls.
 *
 * @param <T> Juneau's class for the kind
 */
final class KindReads<T extends HasMetadata> {
    /** One object's last reading. */
    record Entry<T>(T readable, String problem, T lastGood) {
        /** What the plan uses: this version, or the last readable one, or nothing. */
        T used() {
            return readable != null ? readable : lastGood;
        }
    }

    /** An object that cannot be read: its key, the problem and whether an earlier version stands in for it. */
    record Unreadable(String key, String problem, boolean keptEarlier) {
    }

    private final Class<T> type;
    private final String kind;
    /** Each version read once; an earlier reading of the same object (same uid) is handed to the next one. */
    private final VersionMemo<Entry<T>> memo = new VersionMemo<>();
    private Map<String, Entry<T>> entries = Map.of();

    KindReads(Class<T> type, String kind) {
        this.type = type;
        this.kind = kind;
    }

    String kind() {
        return kind;
    }

    /**
     * Reads what the informer holds now; versions already read are not read again.
     *
     * @return the newly found problems (a new version that cannot be read), for the caller to say once
     */
    List<Unreadable> update(Collection<GenericKubernetesResource> raw) {
        List<Unreadable> fresh = new ArrayList<>();
        entries = memo.readAll(raw, (g, before) -> {
            Entry<T> e = read(g, before == null ? null : before.used());
            if (e.problem() != null) {
                fresh.add(new Unreadable(key(g.getMetadata()), e.problem(), e.lastGood() != null));
            }
            return e;
        });
        return fresh;
    }

    private Entry<T> read(GenericKubernetesResource g, T earlier) {
        try {
            return new Entry<>(KubeObjects.read(KubeObjects.tree(g), type, kind), null, null);
        } catch (UnreadableObjectException e) {
            return new Entry<>(null, e.getMessage(), earlier);
        }
    }
    /** The objects the plan uses: every readable one, and the last readable version of a damaged one. */
    List<T> usable() {
        List<T> out = new ArrayList<>(entries.size());
        for (Entry<T> e : entries.values()) {
            if (e.used() != null) {
                out.add(e.used());
            }
        }
        return out;
    }

    /** The objects that cannot be read now, by key, with their problems. */
    Map<String, String> unreadable() {
        Map<String, String> out = new TreeMap<>();
        entries.forEach((k, e) -> {
            if (e.problem() != null) {
                out.put(k, e.problem());
            }
        });
        return out;
    }

    /** Keys of the objects that cannot be read and have no readable version to stand in: nothing is known of them. */
    List<String> unknown() {
        List<String> out = new ArrayList<>();
        entries.forEach((k, e) -> {
            if (e.used() == null) {
                out.add(k);
            }
        });
        return out;
    }

    /** {@code namespace/name} for a namespaced object, {@code name} otherwise ("" when even that is missing). */
    static String key(ObjectMeta meta) {
        return meta == null ? "" : VersionMemo.key(meta);
    }
}
