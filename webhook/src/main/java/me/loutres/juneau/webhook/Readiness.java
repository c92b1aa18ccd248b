package me.loutres.juneau.webhook;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * What {@code /readyz} reports: every named check must hold (the embedded server adds "TLS material loaded", the
 * cluster view adds "cluster view synced"). A container deploying the WAR terminates TLS itself, so only the view
 * check applies there.
 */
public final class Readiness {
    private final List<Map.Entry<String, BooleanSupplier>> checks = new CopyOnWriteArrayList<>();

    public Readiness require(String what, BooleanSupplier check) {
        checks.add(Map.entry(what, check));
        return this;
    }

    /** Names of the checks that do not hold yet; empty when ready. */
    public List<String> missing() {
        return checks.stream().filter(c -> !c.getValue().getAsBoolean()).map(Map.Entry::getKey).toList();
    }
}
