package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import me.loutres.juneau.view.ClusterView;

/**
 * NodeNetworks are the node agents' (docs/admission.md, NodeNetwork; docs/api-reference.md, NodeNetwork): only an agent identity creates or
 * updates one (and its {@code status}), named after its node ({@code metadata.name} = {@code spec.nodeName}), and
 * only for its own node when its token says which node it runs on, as for BGPSessions ({@link BgpSessionRules}): a
 * node that could write another's NodeNetwork could reserve that node's addresses away or make its pools look
 * unreachable. The controller, the garbage collector and the namespace controller may delete one, and so may the
 * agent of its node.
 */
final class NodeNetworkRules implements KindRules {
    private final AdmissionSettings settings;

    NodeNetworkRules(AdmissionSettings settings) {
        this.settings = settings;
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        if (!(review.isCreate() || review.isUpdate() || review.isDelete())) {
            return Verdict.allow();
        }
        String who = " (request by " + Texts.quote(review.username()) + ")";
        String what = "NodeNetwork " + review.objectName();
        boolean agent = settings.agentUsernames().contains(review.username());
        if (review.isDelete()) {
            if (settings.controllerUsernames().contains(review.username())
                    || ControllerOnlyRules.DELETERS.contains(review.username())) {
                return Verdict.allow();
            }
            if (agent) {
                String foreign = BgpSessionRules.foreignNode(review, nodeName(review.oldObject()), "NodeNetworks");
                return foreign == null ? Verdict.allow() : Verdict.deny(what + ": " + foreign + who);
            }
            return Verdict.deny(what + " is the node agent's report of its node's network; only the agent of its node,"
                    + " the controller, the garbage collector or the namespace controller may delete it" + who);
        }
        if (!agent) {
            if (ControllerOnlyRules.ORPHANING.allows().test(review)) {
                return Verdict.allow();
            }
            return Verdict.deny(what + " is written by the node agents only: it is what the node's kernel reports of"
                    + " its interfaces and gateways, and kubectl get nodenetworks shows it" + who);
        }
        Verdict verdict = Verdict.allow();
        String node = nodeName(review.object());
        if (node.isEmpty()) {
            verdict.problem("spec.nodeName: missing; accepted: the name of the agent's node");
        } else if (!node.equals(review.objectName())) {
            verdict.problem("metadata.name: " + Texts.quote(review.objectName()) + " is not spec.nodeName; accepted: "
                    + node);
        }
        if (review.isUpdate() && review.oldObject() != null
                && !review.oldObject().path("spec").equals(review.object().path("spec"))) {
            verdict.problem("spec.nodeName: cannot change from " + Texts.quote(nodeName(review.oldObject())) + " to "
                    + Texts.quote(node) + "; accepted: the same spec (another node's network is another NodeNetwork)");
        }
        String foreign = BgpSessionRules.foreignNode(review, node, "NodeNetworks");
        if (foreign != null) {
            verdict.problem(foreign);
        }
        return verdict.denied() ? Verdict.deny(what + ": " + verdict.message() + who) : verdict;
    }

    private static String nodeName(JsonNode object) {
        if (object == null) {
            return "";
        }
        JsonNode n = object.path("spec").path("nodeName");
        return n.isTextual() ? n.asText() : "";
    }
}
