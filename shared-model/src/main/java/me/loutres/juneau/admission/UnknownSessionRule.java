package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import me.loutres.juneau.plan.SessionLiveness;

/**
 * The one BGPSession write of the controller (docs/admission.md, BGPSession): an UPDATE of the {@code status}
 * subresource saying {@code state: Unknown}, no routes, for a session whose node's agent is dead by its Lease; what
 * it said before was its agent's, and that agent no longer speaks. Anything else of the controller is denied: a
 * session's state is otherwise what the node's BGP daemon reports.
 */
final class UnknownSessionRule {
    private UnknownSessionRule() {
    }

    /** Allowed, or denied with what the controller may write. */
    static Verdict review(Review review, String what, String who) {
        if (!review.isUpdate() || !"status".equals(review.subResource())) {
            return Verdict.deny(what + ": the controller may only UPDATE its status subresource, to state "
                    + SessionLiveness.UNKNOWN + " when the node's agent is dead" + who);
        }
        JsonNode status = review.object().path("status");
        JsonNode state = status.path("state");
        Verdict verdict = Verdict.allow();
        if (!SessionLiveness.UNKNOWN.equals(state.textValue())) {
            verdict.problem("status.state: " + (state.isMissingNode() || state.isNull() ? "missing"
                    : Texts.quote(state.asText())) + " is not for the controller to write; accepted: "
                    + SessionLiveness.UNKNOWN + " (the node's agent is dead: its session is no longer known)");
        }
        JsonNode routes = status.path("routesAdvertised");
        if (!routes.isMissingNode() && !routes.isNull() && !(routes.isIntegralNumber() && routes.asLong() == 0)) {
            verdict.problem("status.routesAdvertised: " + routes + " cannot be claimed by the controller; accepted: 0"
                    + " or absent");
        }
        return verdict.denied() ? Verdict.deny(what + ": " + verdict.message() + who) : verdict;
    }
}
