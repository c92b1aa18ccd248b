package me.loutres.juneau.runtime;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key exponential backoff: base, 2×base, 4×base ... capped. A key that succeeds is forgotten, so its next
 * failure starts again from the base delay.
 */
public final class Backoff<K> {
    private final long baseMillis;
    private final long maxMillis;
    private final ConcurrentHashMap<K, Integer> failures = new ConcurrentHashMap<>();

    public Backoff(Duration base, Duration max) {
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff needs 0 < base <= max, got " + base + " and " + max);
        }
        this.baseMillis = base.toMillis();
        this.maxMillis = max.toMillis();
    }

    /** Records one more failure of the key and returns how long to wait before retrying it. */
    public Duration next(K key) {
        int n = failures.merge(key, 1, Integer::sum);
        return Duration.ofMillis(delayMillis(n));
    }

    /**
     * Records one more failure of the key and returns its delay on another scale (base, 2×base ... cap), for
     * failures that must not be retried as fast as the usual ones (a write the API server refuses).
     */
    public Duration next(K key, Duration base, Duration cap) {
        int n = failures.merge(key, 1, Integer::sum);
        return Duration.ofMillis(delayMillis(n, base.toMillis(), cap.toMillis()));
    }

    /** The delay after {@code n} consecutive failures (n >= 1). */
    long delayMillis(int n) {
        return delayMillis(n, baseMillis, maxMillis);
    }

    static long delayMillis(int n, long baseMillis, long maxMillis) {
        int shift = Math.min(n - 1, 30);
        long d = baseMillis << shift;
        return d <= 0 || d > maxMillis ? maxMillis : d;
    }

    public void forget(K key) {
        failures.remove(key);
    }

    public int failures(K key) {
        return failures.getOrDefault(key, 0);
    }
}
