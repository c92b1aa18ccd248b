package me.loutres.juneau.agent.arp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When the ARP probes before a VIP's first announcement go out, and when the probe ends (RFC 5227, 2.1.1, shortened:
 * RFC 5227 waits up to 1 s before the first probe and spaces three probes 1–2 s apart, about 7 s in all; a VIP that
 * no one has announced yet is a fresh allocation, where 1 s is the budget). The default sends three probes 333 ms
 * apart and ends 1 s after the first. A failover never probes (docs/troubleshooting.md).
 *
 * @param probes   how many probes (at least 1)
 * @param interval time between probes (positive)
 * @param verdictAfter from the first probe to the verdict (at least the last probe's offset)
 */
public record ProbeSchedule(int probes, Duration interval, Duration verdictAfter) {
    public static final ProbeSchedule DEFAULT = new ProbeSchedule(3, Duration.ofMillis(333), Duration.ofSeconds(1));

    public ProbeSchedule {
        if (probes < 1) {
            throw new IllegalArgumentException("at least one ARP probe, got " + probes);
        }
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("ARP probe interval must be positive, got " + interval);
        }
        if (verdictAfter == null || verdictAfter.compareTo(interval.multipliedBy(probes - 1)) < 0) {
            throw new IllegalArgumentException("ARP probe verdict after " + verdictAfter
                    + " comes before the last probe");
        }
    }

    /** Offsets from the start at which a probe is sent. */
    public List<Duration> offsets() {
        List<Duration> out = new ArrayList<>();
        for (int i = 0; i < probes; i++) {
            out.add(interval.multipliedBy(i));
        }
        return out;
    }
}
