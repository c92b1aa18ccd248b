package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;

/** The names one object gives another, for the views' indexes (docs/admission.md, BGPPeer). */
public final class BgpNames {
    private BgpNames() {
    }

    /** The BGPPeers an ExternalNetwork lists in {@code spec.bgp.peers}, each once, nulls left out. */
    public static List<String> peersOf(ExternalNetwork network) {
        if (network.getSpec() == null || network.getSpec().getBgp() == null
                || network.getSpec().getBgp().getPeers() == null) {
            return List.of();
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String p : network.getSpec().getBgp().getPeers()) {
            if (p != null) {
                out.add(p);
            }
        }
        return new ArrayList<>(out);
    }
}
