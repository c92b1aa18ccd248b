package me.loutres.juneau.controller.reconcile;

import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import me.loutres.juneau.controller.ServiceKey;

/** Services waiting for an address, retried oldest first when capacity frees (docs/phases-and-conditions.md). */
public final class PendingServices {

    /**
     * @param createdAt the Service's creationTimestamp (RFC 3339 in UTC sorts as text)
     * @param requested the address asked for, when the Service waits for that one address to be released
     */
    public record Waiting(ServiceKey key, String createdAt, String network, OptionalLong requested) {
        static final Comparator<Waiting> OLDEST_FIRST = Comparator.comparing(Waiting::createdAt)
                .thenComparing(Waiting::key);
    }

    private final ConcurrentHashMap<ServiceKey, Waiting> waiting = new ConcurrentHashMap<>();

    public void put(Waiting w) {
        waiting.put(w.key(), w);
    }

    public void remove(ServiceKey key) {
        waiting.remove(key);
    }

    public boolean contains(ServiceKey key) {
        return waiting.containsKey(key);
    }

    public int size() {
        return waiting.size();
    }

    public List<Waiting> oldestFirst(Predicate<Waiting> filter) {
        return waiting.values().stream().filter(filter).sorted(Waiting.OLDEST_FIRST).toList();
    }
}
