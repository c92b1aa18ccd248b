package me.loutres.juneau.cli.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the demo observed, step by step: the IT asserts on this rather than on the printed wording. */
public final class DemoReport {
    /** One step: its title and, when it did not behave as expected, why. */
    public record Step(String title, String failure) {
        public boolean ok() {
            return failure == null;
        }
    }

    final List<Step> steps = new ArrayList<>();
    /** Service (namespace/name) to the VIP it got. */
    final Map<String, String> vips = new LinkedHashMap<>();
    /** Object file name to the rejection kubectl would print. */
    final Map<String, String> rejections = new LinkedHashMap<>();
    final List<String> warnings = new ArrayList<>();
    String arpNodeBefore;
    String arpNodeAfter;
    boolean arpMovedInPlace;
    long failoverMillis = -1;
    String pendingReason;
    String pendingMessage;
    String recoveredVip;

    public List<Step> steps() {
        return List.copyOf(steps);
    }

    public boolean succeeded() {
        return !steps.isEmpty() && steps.stream().allMatch(Step::ok);
    }

    /**
     * The steps that did not behave as expected, each with its number (1-based). The wire steps run after one
     * another fails (the BGP step does not need the ARP one), so the last step is not always the one that failed.
     */
    public Map<Integer, Step> failures() {
        Map<Integer, Step> out = new LinkedHashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            if (!steps.get(i).ok()) {
                out.put(i + 1, steps.get(i));
            }
        }
        return out;
    }

    public Map<String, String> vips() {
        return Map.copyOf(vips);
    }

    public Map<String, String> rejections() {
        return Map.copyOf(rejections);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public String arpNodeBefore() {
        return arpNodeBefore;
    }

    public String arpNodeAfter() {
        return arpNodeAfter;
    }

    public boolean arpMovedInPlace() {
        return arpMovedInPlace;
    }

    public long failoverMillis() {
        return failoverMillis;
    }

    public String pendingReason() {
        return pendingReason;
    }

    public String pendingMessage() {
        return pendingMessage;
    }

    public String recoveredVip() {
        return recoveredVip;
    }
}
