package me.loutres.juneau.admission;

import me.loutres.juneau.view.ClusterView;

final class ControllerOnlyRules implements KindRules {
    private final AdmissionSettings settings;
    private final KindRules content;

    private ControllerOnlyRules(AdmissionSettings settings, KindRules content) {
        this.settings = settings;
        this.content = content;
    }

    static ControllerOnlyRules serviceLoadBalancers(AdmissionSettings settings) {
        return new ControllerOnlyRules(settings, (r, v) -> Verdict.allow());
    }

    static ControllerOnlyRules arpAdvertisements(AdmissionSettings settings, KindRules content) {
        return new ControllerOnlyRules(settings, content);
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        return content.review(review, view); // first cut: the rules land in the next commits
    }
}
