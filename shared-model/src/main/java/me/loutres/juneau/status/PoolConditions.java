package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import me.loutres.juneau.allocation.PoolConflicts;

/**
 * The conditions of an AddressPool's status, computed in one place from every conflict found for it (pools that
 * overlap it, networks that share it, and any other source a caller adds to the list): condition {@code Conflict},
 * True with the first conflict's reason and every conflict's sentence, or False {@code NoConflict}. A condition
 * keeps its {@code lastTransitionTime} while its status stays; conditions of other types are kept as they are.
 */
public final class PoolConditions {
    public static final String CONDITION_CONFLICT = "Conflict";
    public static final String REASON_NO_CONFLICT = "NoConflict";

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
        Condition before = prev.stream().filter(p -> CONDITION_CONFLICT.equals(p.getType())).findFirst().orElse(null);
        c.setLastTransitionTime(before != null && c.getStatus().equals(before.getStatus())
                && before.getLastTransitionTime() != null ? before.getLastTransitionTime() : now);
        List<Condition> out = new ArrayList<>();
        for (Condition p : prev) {
            if (!CONDITION_CONFLICT.equals(p.getType())) {
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
