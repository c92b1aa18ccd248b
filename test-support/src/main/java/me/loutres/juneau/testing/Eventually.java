package me.loutres.juneau.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Polls until a condition holds or a generous deadline passes. The deadline is a safety net against hanging,
 * never the thing under test: no assertion here is about speed. Shared by the tests of every module.
 */
public final class Eventually {
    public static final Duration DEFAULT = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 20;

    private Eventually() {
    }

    /** Retries {@code assertion} while it throws an AssertionError; rethrows the last one at the deadline. */
    public static void eventually(Runnable assertion) {
        eventually(DEFAULT, assertion);
    }

    public static void eventually(Duration timeout, Runnable assertion) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("still failing after " + timeout + ": " + e, e);
                }
            }
            sleep();
        }
    }

    public static void until(String what, BooleanSupplier condition) {
        until(DEFAULT, what, condition);
    }

    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true after " + timeout + ": " + what);
            }
            sleep();
        }
    }

    /** Polls a value until it satisfies the check; returns it. */
    public static <T> T value(String what, Supplier<T> value, Predicate<T> check) {
        long deadline = System.nanoTime() + DEFAULT.toNanos();
        T last = null;
        while (true) {
            try {
                last = value.get();
                if (check.test(last)) {
                    return last;
                }
            } catch (RuntimeException e) {
                // not there yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true after " + DEFAULT + ": " + what + " (last value: " + last + ")");
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }
}
