package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls until a condition holds; the generous deadline only guards against hanging, it is not under test. */
final class Poll {
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private Poll() {
    }

    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true after " + DEADLINE + ": " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }
}
