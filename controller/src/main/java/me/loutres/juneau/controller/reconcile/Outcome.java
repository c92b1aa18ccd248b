package me.loutres.juneau.controller.reconcile;

import java.time.Duration;

/** How a reconcile ended when it did not throw: done, or look again after a delay. */
public record Outcome(Duration requeueAfter) {
    public static final Outcome DONE = new Outcome(null);

    public static Outcome after(Duration d) {
        return new Outcome(d);
    }

    public boolean requeue() {
        return requeueAfter != null;
    }
}
