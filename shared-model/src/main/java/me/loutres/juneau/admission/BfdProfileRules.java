package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.view.ClusterView;

/** BFDProfile CREATE, UPDATE, DELETE (docs/admission.md, BFDProfile): timer ranges, no DELETE while a peer names it. */
final class BfdProfileRules extends ReferencedKindRules {
    @Override
    Verdict reviewWrite(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        BFDProfile profile = review.objectAs(BFDProfile.class, JuneauConstants.KIND_BFD_PROFILE);
        BFDProfileSpec spec = profile.getSpec();
        if (spec == null) {
            return verdict; // every field has a default
        }
        interval(verdict, "spec.receiveInterval", spec.getReceiveInterval());
        interval(verdict, "spec.transmitInterval", spec.getTransmitInterval());
        Integer m = spec.getDetectMultiplier();
        if (m != null && (m < 2 || m > 255)) {
            verdict.problem("spec.detectMultiplier: " + m + " is out of range; accepted: 2 to 255 (default 3)");
        }
        return verdict;
    }

    private static void interval(Verdict verdict, String field, Integer ms) {
        if (ms != null && (ms < 10 || ms > 60_000)) {
            verdict.problem(field + ": " + ms + " is out of range; accepted: 10 to 60000 milliseconds (default 300)");
        }
    }

    @Override
    Verdict reviewDelete(String name, ClusterView view) {
        List<String> peers = new ArrayList<>();
        for (BGPPeer p : view.bgpPeersNamingBfdProfile(name)) {
            if (!Texts.beingDeleted(p)) {
                peers.add(Texts.name(p));
            }
        }
        if (peers.isEmpty()) {
            return Verdict.allow();
        }
        peers.sort(null);
        return Verdict.deny("BFDProfile " + name + " cannot be deleted: BGPPeer "
                + Texts.list(peers, ExternalNetworkRules.MAX_NAMED_REFERENCES) + (peers.size() == 1 ? " names" : " name")
                + " it in spec.bfdProfile; remove it from there first");
    }
}
