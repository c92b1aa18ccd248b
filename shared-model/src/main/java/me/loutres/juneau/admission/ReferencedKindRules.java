package me.loutres.juneau.admission;

import me.loutres.juneau.view.ClusterView;

/**
 * Rules of a kind that other objects name (an AddressPool in ExternalNetworks, an ExternalNetwork in
 * ServiceLoadBalancers): CREATE and UPDATE are checked by content, DELETE by who still names the object, any other
 * operation is allowed.
 */
abstract class ReferencedKindRules implements KindRules {
    @Override
    public final Verdict review(Review review, ClusterView view) {
        if (review.isDelete()) {
            // docs/admission.md: cross-object checks are skipped for an object being deleted, so its finalizers can always go
            return review.beingDeleted() ? Verdict.allow() : reviewDelete(review.objectName(), view);
        }
        if (review.isCreate() || review.isUpdate()) {
            return reviewWrite(review, view);
        }
        return Verdict.allow();
    }

    /** CREATE or UPDATE: the object's own fields, and what it newly names checked against the cluster view. */
    abstract Verdict reviewWrite(Review review, ClusterView view);

    /** DELETE of {@code name}, not already being deleted: refused while other objects still name it. */
    abstract Verdict reviewDelete(String name, ClusterView view);
}
