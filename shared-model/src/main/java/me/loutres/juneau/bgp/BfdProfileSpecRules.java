package me.loutres.juneau.bgp;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;

/**
 * A BFDProfile's ranges and defaults (docs/api-reference.md, BFDProfile): admission refuses what {@link #problems}
 * names, and the agent gives BIRD {@link #timing} of what it admitted.
 */
public final class BfdProfileSpecRules {
    public static final int DEFAULT_INTERVAL_MS = 300;
    public static final int DEFAULT_MULTIPLIER = 3;

    private BfdProfileSpecRules() {
    }

    /**
     * The timing BIRD is given.
     *
     * @param receiveMs  minimum receive interval, milliseconds
     * @param transmitMs minimum transmit interval, milliseconds
     * @param multiplier detect multiplier
     * @param passive    wait for the peer's first packet
     */
    public record Timing(int receiveMs, int transmitMs, int multiplier, boolean passive) {
    }

    public static List<String> problems(BFDProfileSpec spec) {
        List<String> out = new ArrayList<>();
        if (spec == null) {
            return out; // every field has a default
        }
        interval(out, "spec.receiveInterval", spec.getReceiveInterval());
        interval(out, "spec.transmitInterval", spec.getTransmitInterval());
        Integer m = spec.getDetectMultiplier();
        if (m != null && (m < 2 || m > 255)) {
            out.add("spec.detectMultiplier: " + m + " is out of range; accepted: 2 to 255 (default 3)");
        }
        return out;
    }

    public static Timing timing(BFDProfileSpec spec) {
        BFDProfileSpec s = spec == null ? new BFDProfileSpec() : spec;
        return new Timing(or(s.getReceiveInterval(), DEFAULT_INTERVAL_MS), or(s.getTransmitInterval(),
                DEFAULT_INTERVAL_MS), or(s.getDetectMultiplier(), DEFAULT_MULTIPLIER),
                Boolean.TRUE.equals(s.getPassiveMode()));
    }

    private static void interval(List<String> out, String field, Integer ms) {
        if (ms != null && (ms < 10 || ms > 60_000)) {
            out.add(field + ": " + ms + " is out of range; accepted: 10 to 60000 milliseconds (default 300)");
        }
    }

    private static int or(Integer v, int d) {
        return v == null ? d : v;
    }
}
