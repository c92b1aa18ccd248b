package me.loutres.juneau.webhook;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What {@code /readyz} reports: every named check must hold (the embedded server adds "TLS material loaded", the
 * cluster view adds "cluster view synced"). A container deploying the WAR terminates TLS itself, so only the view
 * check applies there. Also what {@code /healthz} reports: the parts that stopped for good, which only a restart
 * brings back (an informer that gave up); a part that is merely waiting (an API server outage) keeps the process
 * live, since restarting it would not help.
 */
public final class Readiness {
    private final List<Map.Entry<String, BooleanSupplier>> checks = new CopyOnWriteArrayList<>();
    private final List<Supplier<List<String>>> liveness = new CopyOnWriteArrayList<>();

    /** A source of names of parts that stopped for good (empty while all run or retry). */
    public Readiness requireAlive(Supplier<List<String>> stopped) {
        liveness.add(stopped);
        return this;
    }

    /** What stopped for good; empty while the process is live. */
    public List<String> stopped() {
        return liveness.stream().flatMap(s -> s.get().stream()).toList();
    }

    public Readiness require(String what, BooleanSupplier check) {
        checks.add(Map.entry(what, check));
        return this;
    }

    /** Names of the checks that do not hold yet; empty when ready. */
    public List<String> missing() {
        return checks.stream().filter(c -> !c.getValue().getAsBoolean()).map(Map.Entry::getKey).toList();
    }
}
