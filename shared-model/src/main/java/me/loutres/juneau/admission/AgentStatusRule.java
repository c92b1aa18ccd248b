package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The node agent's part of docs/admission.md (who writes derived objects): it reports who answers ARP, nothing more. It may UPDATE only the {@code status}
 * subresource of an ARPAdvertisement, and only to say that the elected node ({@code spec.nodeName}) answers, so a
 * compromised or confused agent cannot move a VIP, delete an advertisement or claim another node's.
 */
final class AgentStatusRule {
    private AgentStatusRule() {
    }

    static Verdict review(Review review) {
        String who = " (request by " + Texts.quote(review.username()) + ")";
        String name = "ARPAdvertisement " + review.objectName();
        if (!review.isUpdate() || !"status".equals(review.subResource())) {
            String what = review.subResource().isEmpty() ? review.operation()
                    : review.operation() + " of subresource " + Texts.quote(review.subResource());
            return Verdict.deny(name + ": the node agent may only update the status subresource, not " + what + who);
        }
        JsonNode object = review.object();
        JsonNode stored = review.oldObject() != null ? review.oldObject() : object;
        if (object == null || !object.path("spec").equals(stored.path("spec"))) {
            return Verdict.deny(name + ": the node agent may not change spec; only the controller moves a VIP" + who);
        }
        // the stored spec is the truth: a status write may not carry a spec change in with it
        String spec = text(stored.path("spec").path("nodeName"));
        String status = text(object.path("status").path("node"));
        if (status.isEmpty()) {
            return Verdict.deny(name + ": status.node is missing; the node agent must name its node, which must be"
                    + " spec.nodeName " + Texts.quote(spec) + who);
        }
        if (!status.equals(spec)) {
            return Verdict.deny(name + ": status.node " + Texts.quote(status) + " is not spec.nodeName "
                    + Texts.quote(spec) + "; a node agent reports only the advertisements its node owns" + who);
        }
        // a bound service-account token says which node the agent runs on: one node's agent cannot speak for another
        // even when both share the agent identity (docs/admission.md, as for BGPSessions)
        if (!review.nodeName().isEmpty() && !review.nodeName().equals(spec)) {
            return Verdict.deny(name + ": spec.nodeName " + Texts.quote(spec) + " is not the requesting agent's node "
                    + Texts.quote(review.nodeName()) + " (userInfo.extra[\"" + Review.NODE_NAME_EXTRA + "\"]);"
                    + " accepted: only advertisements of node " + review.nodeName() + who);
        }
        return Verdict.allow();
    }

    private static String text(JsonNode n) {
        return n == null || !n.isTextual() ? "" : n.asText();
    }
}
