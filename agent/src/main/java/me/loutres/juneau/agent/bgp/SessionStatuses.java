package me.loutres.juneau.agent.bgp;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;
import me.loutres.juneau.api.v1alpha1.WithheldNetwork;

/**
 * A BGPSession's status from a {@link SessionReport} (docs/api-reference.md, BGPSession). Pure: the time comes in.
 * {@code since} and the condition's {@code lastTransitionTime} move only when the state does.
 */
public final class SessionStatuses {
    public static final String CONDITION_ESTABLISHED = "Established";

    private SessionStatuses() {
    }

    public static BGPSessionStatus wanted(SessionReport r, BGPSessionStatus previous, long generation, Instant now) {
        String at = now.truncatedTo(ChronoUnit.SECONDS).toString();
        boolean sameState = previous != null && r.state().equals(previous.getState()) && previous.getSince() != null;
        BGPSessionStatus s = new BGPSessionStatus();
        s.setState(r.state());
        s.setBfdState(r.bfdState());
        s.setSince(sameState ? previous.getSince() : at);
        s.setRoutesAdvertised(r.routes());
        s.setLastError(r.lastError());
        s.setWithheldNetworks(r.withheld().isEmpty() ? null : r.withheld().entrySet().stream()
                .map(e -> new WithheldNetwork(e.getKey(), e.getValue())).toList());
        s.setCarriedAddresses(r.carried());
        s.setObservedGeneration(generation);
        String status = r.established() ? "True" : "False";
        Condition old = previous == null || previous.getConditions() == null ? null : previous.getConditions().stream()
                .filter(c -> CONDITION_ESTABLISHED.equals(c.getType())).findFirst().orElse(null);
        String transition = old != null && status.equals(old.getStatus()) && old.getLastTransitionTime() != null
                ? old.getLastTransitionTime() : at;
        String message = r.established() ? "BGP session Established" + (r.bfdState() == null ? ""
                : ", BFD " + r.bfdState()) + (r.withheld().isEmpty() ? "" : "; routes of " + String.join(", ",
                r.withheld().keySet()) + " not sent (see withheldNetworks)") : "BGP session " + r.state() + (r.lastError() == null ? ""
                : ": " + r.lastError());
        s.setConditions(List.of(new ConditionBuilder().withType(CONDITION_ESTABLISHED).withStatus(status)
                .withReason(r.state()).withMessage(message).withObservedGeneration(generation)
                .withLastTransitionTime(transition).build()));
        return s;
    }

    /** Whether two statuses say the same thing (no write needed). */
    public static boolean same(BGPSessionStatus a, BGPSessionStatus b) {
        return a != null && b != null && Objects.equals(a.getState(), b.getState())
                && Objects.equals(a.getBfdState(), b.getBfdState()) && Objects.equals(a.getSince(), b.getSince())
                && Objects.equals(a.getRoutesAdvertised(), b.getRoutesAdvertised())
                && Objects.equals(a.getLastError(), b.getLastError())
                && Objects.equals(a.getWithheldNetworks(), b.getWithheldNetworks())
                && Objects.equals(a.getCarriedAddresses(), b.getCarriedAddresses())
                && Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
                && Objects.equals(a.getConditions(), b.getConditions());
    }
}
