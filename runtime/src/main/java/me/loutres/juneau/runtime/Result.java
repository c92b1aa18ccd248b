package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * How a reconcile ended when it did not throw: done; look again after a delay; or a failure the reconciler has
 * already reported (say a write the API server refused) that must be retried with a per-key exponential backoff
 * between {@code retryBase} and {@code retryCap}, counted under {@code cause} in the metrics.
 */
public record Result(Duration requeueAfter, String cause, Duration retryBase, Duration retryCap) {
    public static final Result DONE = new Result(null, null, null, null);

    public static Result after(Duration d) {
        return new Result(Objects.requireNonNull(d), null, null, null);
    }

    /** A handled failure: retried with backoff base, 2×base, 4×base ... up to cap; success resets it. */
    public static Result retry(String cause, Duration base, Duration cap) {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("retry needs 0 < base <= cap, got " + base + " and " + cap);
        }
        return new Result(null, Objects.requireNonNull(cause), base, cap);
    }

    public boolean requeue() {
        return requeueAfter != null;
    }

    public boolean failed() {
        return cause != null;
    }
}
