package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BFDProfileSpec;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.bgp.BfdProfileSpecRules;
import me.loutres.juneau.view.ClusterView;

/** BFDProfile CREATE, UPDATE, DELETE (docs/admission.md, BFDProfile): timer ranges, no DELETE while a peer names it. */
final class BfdProfileRules extends ReferencedKindRules {
    @Override
    Verdict reviewWrite(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        BFDProfile profile = review.objectAs(BFDProfile.class, JuneauConstants.KIND_BFD_PROFILE);
        BFDProfileSpec spec = profile.getSpec();
        BfdProfileSpecRules.problems(spec).forEach(verdict::problem);
        return verdict;
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
