package me.loutres.juneau.admission;

import me.loutres.juneau.view.ClusterView;

/** The rules of one endpoint: they read the request and the cluster view and return a verdict. */
interface KindRules {
    Verdict review(Review review, ClusterView view);
}
