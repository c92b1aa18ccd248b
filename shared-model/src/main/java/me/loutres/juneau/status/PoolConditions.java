package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import me.loutres.juneau.allocation.ClusterRangeOverlaps;
import me.loutres.juneau.allocation.PoolConflicts;

/**
 * The conditions of an AddressPool's status, computed in one place from every conflict found for it (pools that
 * overlap it, networks that share it, and any other source a caller adds to the list): condition {@code Conflict},
 * True with the first conflict's reason and every conflict's sentence, or False {@code NoConflict}. A condition
 * keeps its {@code lastTransitionTime} while its status stays; conditions of other types are kept as they are.
 * Condition {@code Overlap} ({@link #withOverlaps}) says which addresses of the pool lie in a range the cluster uses,
 * learnt after the pool was stored (docs/allocation.md, "Pools overlapping the cluster's ranges").
 */
public final class PoolConditions {
    public static final String CONDITION_CONFLICT = "Conflict";
    public static final String REASON_NO_CONFLICT = "NoConflict";
    public static final String CONDITION_OVERLAP = "Overlap";
    public static final String REASON_NO_OVERLAP = "NoOverlap";

    private PoolConditions() {
    }

    public static List<Condition> next(List<Condition> previous, List<PoolConflicts.Conflict> conflicts, String now) {
        List<Condition> prev = previous == null ? List.of() : previous.stream().filter(Objects::nonNull).toList();
        Condition c = new Condition();
        c.setType(CONDITION_CONFLICT);
        if (conflicts.isEmpty()) {
            c.setStatus("False");
            c.setReason(REASON_NO_CONFLICT);
            c.setMessage("no other AddressPool overlaps this one and at most one ExternalNetwork lists it");
        } else {
            c.setStatus("True");
            c.setReason(conflicts.get(0).reason());
            c.setMessage(conflicts.stream().map(PoolConflicts.Conflict::message).collect(Collectors.joining("; ")));
        }
        return replace(prev, c, now);
    }

    /**
     * Condition {@code Overlap}: True, reason {@code OverlapsClusterRange}, with how many addresses are reserved, each
     * overlap naming its object ({@code ServiceCIDR kubernetes 10.96.0.0/12}, {@code Node worker-1 podCIDR
     * 10.244.1.0/24}) and each VIP kept inside; else False {@code NoOverlap}.
     *
     * @param reserved the pool's addresses in those ranges that nobody holds (not counted in {@code total})
     */
    public static List<Condition> withOverlaps(List<Condition> previous, String pool,
            List<ClusterRangeOverlaps.Overlap> overlaps, long reserved, List<ClusterRangeOverlaps.KeptVip> kept,
            String now) {
        List<Condition> prev = previous == null ? List.of() : previous.stream().filter(Objects::nonNull).toList();
        Condition c = new Condition();
        c.setType(CONDITION_OVERLAP);
        if (overlaps.isEmpty()) {
            c.setStatus("False");
            c.setReason(REASON_NO_OVERLAP);
            c.setMessage("no address of this pool lies in a ServiceCIDR or a Node's podCIDR");
        } else {
            c.setStatus("True");
            c.setReason(ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE);
            List<String> sentences = new ArrayList<>();
            sentences.add(reserved + (reserved == 1 ? " address" : " addresses") + " reserved (never handed out, not "
                    + "counted in total or free)" + (kept.isEmpty() ? "" : ", " + kept.size() + " kept by the "
                    + (kept.size() == 1 ? "Service that held it" : "Services that held them") + " before"));
            overlaps.forEach(o -> sentences.add(o.sentence(pool)));
            kept.forEach(k -> sentences.add(k.sentence(pool)));
            c.setMessage(String.join("; ", sentences));
        }
        return replace(prev, c, now);
    }

    /** {@code prev} with {@code c} in place of the condition of its type, keeping the transition time of a status. */
    private static List<Condition> replace(List<Condition> prev, Condition c, String now) {
        Condition before = prev.stream().filter(p -> c.getType().equals(p.getType())).findFirst().orElse(null);
        c.setLastTransitionTime(before != null && c.getStatus().equals(before.getStatus())
                && before.getLastTransitionTime() != null ? before.getLastTransitionTime() : now);
        List<Condition> out = new ArrayList<>();
        for (Condition p : prev) {
            if (!c.getType().equals(p.getType())) {
                out.add(p);
            }
        }
        out.add(c);
        return out;
    }

    /** Equal but for transition times: no status write is needed. */
    public static boolean same(List<Condition> a, List<Condition> b) {
        return strip(a).equals(strip(b));
    }

    private static List<List<String>> strip(List<Condition> cs) {
        return (cs == null ? List.<Condition>of() : cs).stream().filter(Objects::nonNull)
                .map(c -> List.of(String.valueOf(c.getType()), String.valueOf(c.getStatus()),
                        String.valueOf(c.getReason()), String.valueOf(c.getMessage())))
                .toList();
    }
}
