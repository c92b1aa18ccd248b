package me.loutres.juneau.plan;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A standing problem is said once while it lasts (one Warning event, not one per reconcile) and again when its
 * message changes or after it cleared and came back. {@code standing} is what was said for one Service, reason →
 * message; the result is what to record now and what stands afterwards.
 */
public record Warnings(List<PlannedEvent> record, Map<String, String> standing) {

    public Warnings {
        record = List.copyOf(record);
        standing = Map.copyOf(standing);
    }

    /**
     * @param raised  the problems of this pass
     * @param cleared reasons this pass judged: one of them not raised again no longer stands
     */
    public static Warnings settle(Map<String, String> standing, List<PlannedEvent> raised, Collection<String> cleared) {
        Map<String, String> next = new HashMap<>(standing);
        next.keySet().removeIf(reason -> cleared.contains(reason)
                && raised.stream().noneMatch(w -> w.reason().equals(reason)));
        List<PlannedEvent> out = new ArrayList<>();
        for (PlannedEvent w : raised) {
            if (!w.message().equals(next.get(w.reason()))) {
                out.add(w);
            }
            next.put(w.reason(), w.message());
        }
        return new Warnings(out, next);
    }

    /** One problem found after the plan (a refused ingress write): said unless the same one stands. */
    public static Warnings once(Map<String, String> standing, PlannedEvent raised) {
        return settle(standing, List.of(raised), List.of());
    }

    public boolean said(String reason) {
        return record.stream().anyMatch(w -> w.reason().equals(reason));
    }
}
