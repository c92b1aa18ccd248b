package me.loutres.juneau.agent.arp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When gratuitous ARPs go out after a node gains a VIP (README.md, "How a VIP answers"): at once, then every {@code interval} until
 * {@code window} has passed. The default 1.1 s is just over Linux's one-second neighbour lock time, so a repeat is
 * never swallowed by the lock a previous update set; five rounds over 5 s cover a lost frame or a switch that
 * learns late.
 *
 * @param interval time between rounds (positive)
 * @param window   rounds start while less than this has passed; {@link Duration#ZERO} sends none at all
 */
public record AnnounceSchedule(Duration interval, Duration window) {
    public static final AnnounceSchedule DEFAULT = new AnnounceSchedule(Duration.ofMillis(1100), Duration.ofSeconds(5));
    /** No gratuitous ARP: a node answers only when asked (what a neighbour cache does then is the negative control). */
    public static final AnnounceSchedule NONE = new AnnounceSchedule(Duration.ofMillis(1100), Duration.ZERO);

    public AnnounceSchedule {
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("gratuitous ARP interval must be positive, got " + interval);
        }
        if (window == null || window.isNegative()) {
            throw new IllegalArgumentException("gratuitous ARP window must be zero or positive, got " + window);
        }
    }

    /** Offsets from the gain at which a round (request and reply form) is sent. */
    public List<Duration> offsets() {
        List<Duration> out = new ArrayList<>();
        for (Duration t = Duration.ZERO; t.compareTo(window) < 0; t = t.plus(interval)) {
            out.add(t);
        }
        return out;
    }
}
