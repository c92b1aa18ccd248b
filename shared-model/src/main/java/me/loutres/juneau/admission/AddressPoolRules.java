package me.loutres.juneau.admission;

import me.loutres.juneau.view.ClusterView;

final class AddressPoolRules implements KindRules {
    private final AdmissionSettings settings;

    AddressPoolRules(AdmissionSettings settings) {
        this.settings = settings;
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        return Verdict.allow(); // first cut: the rules land in the next commits
    }
}
