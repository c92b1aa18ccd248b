package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.function.Function;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.RecentWrites;

/**
 * A kind the controller writes, as {@link KubeWriter} needs to know it to write any object of it: its class,
 * whether its objects live in a namespace, the key {@link RecentWrites} files one under, and that overlay — null for
 * a kind whose writes are not tracked (events: nothing reads them back).
 *
 * @param type       the object's class (fabric8 finds its path from it)
 * @param namespaced its objects live in a namespace (else they are cluster-scoped)
 * @param key        the overlay's key of an object: {@code namespace/name} or the name
 * @param recent     what was written and not delivered yet; null when writes of the kind are not tracked
 */
record WrittenKind<T extends HasMetadata>(Class<T> type, boolean namespaced, Function<T, String> key,
        RecentWrites<T> recent) {

    /** A namespaced kind, tracked under {@code namespace/name}. */
    static <T extends HasMetadata> WrittenKind<T> namespaced(Class<T> type, RecentWrites<T> recent) {
        return new WrittenKind<>(type, true, WrittenKind::namespacedKey, recent);
    }

    /** A cluster-scoped kind, tracked under its name. */
    static <T extends HasMetadata> WrittenKind<T> clusterScoped(Class<T> type, RecentWrites<T> recent) {
        return new WrittenKind<>(type, false, o -> o.getMetadata().getName(), recent);
    }

    /** A namespaced kind whose writes are not tracked. */
    static <T extends HasMetadata> WrittenKind<T> untracked(Class<T> type) {
        return new WrittenKind<>(type, true, WrittenKind::namespacedKey, null);
    }

    /** A cluster-scoped kind whose writes are not tracked (nothing reads them back from the overlay). */
    static <T extends HasMetadata> WrittenKind<T> clusterScopedUntracked(Class<T> type) {
        return new WrittenKind<>(type, false, o -> o.getMetadata().getName(), null);
    }

    /** The overlay's key of a namespaced object: its {@link ServiceKey}, as the cache reads it. */
    private static String namespacedKey(HasMetadata o) {
        return ServiceKey.of(o).toString();
    }
}
