package me.loutres.juneau.plan;

import java.util.Map;
import java.util.TreeMap;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The writes the API server refuses a node agent (403, 422), as the agent records them on its own Lease (docs/design.md,
 * "How an agent's refused writes reach the ServiceLoadBalancer"): one line per kind, {@code Kind: Reason: message}.
 * The Lease is the one object an agent writes whatever else it is refused (its own RBAC rule, no webhook), and the
 * controller reads it anyway; so condition Announced can say "its writes are refused" where it said "its agent does
 * not run" (issue 41). Pure.
 */
public final class RefusedWrites {
    /** The agent Lease's annotation. */
    public static final String ANNOTATION = JuneauConstants.GROUP + "/refused-writes";
    /** Per kind, so a long message cannot make the Lease large. */
    public static final int MAX_PER_KIND = 300;

    private RefusedWrites() {
    }

    /** The annotation's value for the refusals by kind ({@code Reason: message}); null when there are none. */
    public static String format(Map<String, String> byKind) {
        if (byKind.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(byKind).forEach((kind, what) -> {
            String line = kind + ": " + what.replace('\n', ' ');
            sb.append(line.length() > MAX_PER_KIND ? line.substring(0, MAX_PER_KIND - 1) + "…" : line).append('\n');
        });
        return sb.toString().stripTrailing();
    }

    /** The refusals by kind in an annotation's value; empty for null or unreadable text. */
    public static Map<String, String> parse(String value) {
        Map<String, String> out = new TreeMap<>();
        if (value == null) {
            return out;
        }
        for (String line : value.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                out.put(line.substring(0, colon).trim(), line.substring(colon + 2).trim());
            }
        }
        return out;
    }

    /**
     * What condition Announced says of a node whose agent's writes of {@code kind} (its BGPSessions, its
     * ARPAdvertisement status) are refused, where it would have said the agent does not run or has not reported.
     */
    static String writesRefused(String node, String kind, String refusal) {
        return node + ": its juneau-agent runs but the API server refuses its " + kind + " writes (" + refusal
                + "); check the agent's RBAC (ClusterRole juneau-agent) and the webhook's --agent-username, and the"
                + " agent's log";
    }
}
