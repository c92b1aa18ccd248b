package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.BGPSessionStatus;

/**
 * A BGPSession says what its node's agent last reported; once that agent is dead by its Lease (expired, or released
 * on shutdown: docs/phases-and-conditions.md, node liveness) nobody speaks for the session any more, and an
 * {@code Established} written before its BIRD died is no longer true (issue 41: 46 s after a {@code kill -9} the
 * session still said Established and the ServiceLoadBalancer named the node in {@code Announced}). Such a session
 * counts as {@code Unknown}: condition Announced does not count it, and the controller writes it so on the
 * BGPSession (the one status write admission allows the controller, docs/admission.md). Pure.
 */
public final class SessionLiveness {
    /** The state of a session whose agent is dead: not a BGP state, the controller's word that none is known. */
    public static final String UNKNOWN = "Unknown";
    /** The reason of condition Established on such a session. */
    public static final String REASON_AGENT_NOT_REPORTING = "AgentNotReporting";

    private SessionLiveness() {
    }

    /** {@code facts} with every session of a dead node read as {@link #UNKNOWN}, with why. */
    public static AnnounceFacts judged(AnnounceFacts facts, NodeLiveness liveness) {
        if (facts.sessions().stream().noneMatch(s -> liveness.dead(s.node()))) {
            return facts;
        }
        List<AnnounceFacts.SessionReport> sessions = facts.sessions().stream()
                .map(s -> liveness.dead(s.node()) ? new AnnounceFacts.SessionReport(s.peer(), s.node(), UNKNOWN,
                        liveness.why(s.node())) : s)
                .toList();
        return new AnnounceFacts(facts.eligibility(), facts.arpWithoutAgents(), sessions, facts.peers(),
                facts.refusedWrites());
    }

    /**
     * The status the controller writes on a session of a dead node: state {@link #UNKNOWN}, no routes claimed, the
     * Lease's words in {@code lastError}, condition Established {@code Unknown}. {@code since} and the condition's
     * transition time stay when the previous status already said so.
     *
     * @param why the node's liveness in words (NodeLiveness#why), e.g. "its agent released Lease juneau-agent-node-b"
     */
    public static BGPSessionStatus unknown(BGPSessionStatus previous, String node, String why, Instant now) {
        String at = now.truncatedTo(ChronoUnit.SECONDS).toString();
        boolean already = previous != null && UNKNOWN.equals(previous.getState()) && previous.getSince() != null;
        BGPSessionStatus s = new BGPSessionStatus();
        s.setState(UNKNOWN);
        s.setSince(already ? previous.getSince() : at);
        s.setRoutesAdvertised(0L);
        String words = "node " + node + " is dead: " + why + "; what its agent last reported (state "
                + (previous == null || previous.getState() == null ? "none" : previous.getState())
                + ") is no longer known";
        s.setLastError(already ? previous.getLastError() : words);
        s.setObservedGeneration(previous == null ? null : previous.getObservedGeneration());
        s.setConditions(List.of(new ConditionBuilder().withType("Established").withStatus("Unknown")
                .withReason(REASON_AGENT_NOT_REPORTING).withMessage(s.getLastError())
                .withObservedGeneration(s.getObservedGeneration()).withLastTransitionTime(already
                        && previous.getConditions() != null && !previous.getConditions().isEmpty()
                        && previous.getConditions().get(0).getLastTransitionTime() != null
                        ? previous.getConditions().get(0).getLastTransitionTime() : at)
                .build()));
        return s;
    }
}
