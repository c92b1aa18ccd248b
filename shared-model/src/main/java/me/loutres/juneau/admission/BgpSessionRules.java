package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;

/**
 * BGPSessions are the node agents' (docs/admission.md, BGPSession): only an agent identity creates or updates one
 * (and its {@code status}), with the name {@code <peer>.<node>}, the two labels and {@code spec} agreeing, and only
 * for its own node when its token says which node it runs on; the controller may only write a dead node's session
 * {@code Unknown} ({@link UnknownSessionRule}). The controller, the garbage collector and the
 * namespace controller may delete one, and so may the agent of its node; the garbage collector may orphan one.
 */
final class BgpSessionRules implements KindRules {
    private final AdmissionSettings settings;

    BgpSessionRules(AdmissionSettings settings) {
        this.settings = settings;
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        if (!(review.isCreate() || review.isUpdate() || review.isDelete())) {
            return Verdict.allow();
        }
        String who = " (request by " + Texts.quote(review.username()) + ")";
        String what = "BGPSession " + review.objectName();
        boolean agent = settings.agentUsernames().contains(review.username());
        if (review.isDelete()) {
            if (settings.controllerUsernames().contains(review.username())
                    || ControllerOnlyRules.DELETERS.contains(review.username())) {
                return Verdict.allow();
            }
            if (agent) {
                String foreign = foreignNode(review, nodeName(review.oldObject()));
                return foreign == null ? Verdict.allow() : Verdict.deny(what + ": " + foreign + who);
            }
            return Verdict.deny(what + " is the node agents' record of a BGP session; only the agent of its node,"
                    + " the controller, the garbage collector or the namespace controller may delete it" + who);
        }
        if (!agent) {
            if (ControllerOnlyRules.ORPHANING.allows().test(review)) {
                return Verdict.allow();
            }
            if (settings.controllerUsernames().contains(review.username())) {
                return UnknownSessionRule.review(review, what, who);
            }
            return Verdict.deny(what + " is written by the node agents only: its status is what the node's BGP"
                    + " daemon reports, and kubectl get bgpsessions shows it" + who);
        }
        Verdict verdict = consistent(review.object(), review.objectName());
        if (review.isUpdate() && review.oldObject() != null
                && !review.oldObject().path("spec").equals(review.object().path("spec"))) {
            verdict.problem("spec: cannot change from " + specText(review.oldObject()) + " to "
                    + specText(review.object()) + "; accepted: the same spec (a session of another peer or node is"
                    + " another BGPSession)");
        }
        String foreign = foreignNode(review, nodeName(review.object()));
        if (foreign != null) {
            verdict.problem(foreign);
        }
        return verdict.denied() ? Verdict.deny(what + ": " + verdict.message() + who) : verdict;
    }

    /** Name, labels and spec say the same (peer, node). */
    private static Verdict consistent(JsonNode object, String name) {
        Verdict verdict = Verdict.allow();
        String peer = text(object.path("spec").path("peer"));
        String node = text(object.path("spec").path("nodeName"));
        if (peer.isEmpty()) {
            verdict.problem("spec.peer: missing; accepted: the name of the BGPPeer");
        }
        if (node.isEmpty()) {
            verdict.problem("spec.nodeName: missing; accepted: the name of the agent's node");
        }
        if (!verdict.denied()) {
            String expected = JuneauConstants.bgpSessionName(peer, node);
            if (!expected.equals(name)) {
                verdict.problem("metadata.name: " + Texts.quote(name) + " is not <spec.peer>.<spec.nodeName>;"
                        + " accepted: " + expected);
            }
        }
        label(verdict, object, JuneauConstants.LABEL_PEER, peer, "spec.peer");
        label(verdict, object, JuneauConstants.LABEL_NODE, node, "spec.nodeName");
        return verdict;
    }

    private static void label(Verdict verdict, JsonNode object, String key, String expected, String source) {
        if (expected.isEmpty()) {
            return;
        }
        JsonNode value = object.path("metadata").path("labels").path(key);
        String field = "metadata.labels[\"" + key + "\"]: ";
        if (value.isMissingNode() || value.isNull()) {
            verdict.problem(field + "missing; accepted: " + expected + " (" + source + ")");
        } else if (!expected.equals(value.asText())) {
            verdict.problem(field + Texts.quote(value.asText()) + " is not " + source + "; accepted: " + expected);
        }
    }

    /** With a bound token, the agent's node must be the session's node; the problem, or null. */
    private static String foreignNode(Review review, String node) {
        return foreignNode(review, node, "sessions");
    }

    /**
     * With a bound token, the agent's node must be the object's node ({@code what}: sessions, NodeNetworks); the
     * problem, or null. One rule for every object an agent writes about its own node.
     */
    static String foreignNode(Review review, String node, String what) {
        if (review.nodeName().isEmpty() || review.nodeName().equals(node)) {
            return null;
        }
        return "spec.nodeName " + Texts.quote(node) + " is not the requesting agent's node "
                + Texts.quote(review.nodeName()) + " (userInfo.extra[\"" + Review.NODE_NAME_EXTRA + "\"]); accepted:"
                + " only " + what + " of node " + review.nodeName();
    }

    private static String nodeName(JsonNode object) {
        return object == null ? "" : text(object.path("spec").path("nodeName"));
    }

    private static String specText(JsonNode object) {
        List<String> parts = new ArrayList<>();
        parts.add("peer " + Texts.quote(text(object.path("spec").path("peer"))));
        parts.add("nodeName " + Texts.quote(text(object.path("spec").path("nodeName"))));
        return String.join(", ", parts);
    }

    private static String text(JsonNode n) {
        return n == null || !n.isTextual() ? "" : n.asText();
    }
}
