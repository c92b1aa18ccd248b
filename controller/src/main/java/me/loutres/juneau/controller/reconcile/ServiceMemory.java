package me.loutres.juneau.controller.reconcile;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.runtime.Term;

/**
 * What the controller remembers between passes over a Service, handed to the planner as part of each snapshot: the
 * warnings standing per key (said once while they last), and which keys this term has looked at for a takeover's
 * {@code IPAllocated} event. Nothing is decided here.
 */
final class ServiceMemory {
    private final Clock clock;
    private final Map<ServiceKey, Map<String, String>> standing = new ConcurrentHashMap<>();
    private final Set<ServiceKey> looked = ConcurrentHashMap.newKeySet();
    private volatile long term = -1;
    private volatile Instant termStartedAt = Instant.EPOCH;

    ServiceMemory(Clock clock) {
        this.clock = clock;
    }

    Map<String, String> standing(ServiceKey key) {
        return standing.getOrDefault(key, Map.of());
    }

    /** An empty map forgets the key. */
    void standing(ServiceKey key, Map<String, String> warnings) {
        if (warnings.isEmpty()) {
            standing.remove(key);
        } else {
            standing.put(key, warnings);
        }
    }

    boolean looked(Term t, ServiceKey key) {
        return inTerm(t).contains(key);
    }

    void look(Term t, ServiceKey key) {
        inTerm(t).add(key);
    }

    /** When this replica first looked at a Service in term {@code t} (about when it took over). */
    Instant termStartedAt(Term t) {
        inTerm(t);
        return termStartedAt;
    }

    /** The keys looked at in term {@code t}, cleared when a new term starts. */
    private Set<ServiceKey> inTerm(Term t) {
        if (term != t.number()) {
            synchronized (looked) {
                if (term != t.number()) {
                    looked.clear();
                    termStartedAt = clock.instant();
                    term = t.number();
                }
            }
        }
        return looked;
    }
}
