package me.loutres.juneau.plan;

/** Which path a Service key takes (docs/phases-and-conditions.md step 1). */
public enum Lifecycle {
    /** The ServiceLoadBalancer is being deleted and holds our finalizer: release and remove the finalizer. */
    FINALIZE,
    /** The ServiceLoadBalancer is being deleted without our finalizer: nothing left for us to do. */
    NOTHING,
    /** The Service is gone, being deleted or not managed: delete its ServiceLoadBalancer (or forget the key). */
    FORGET,
    /** The ServiceLoadBalancer belongs to an earlier Service of that name: delete it (its finalizer releases). */
    REPLACE_STALE,
    /** Keep the ServiceLoadBalancer, the VIP, the advertisement, the ingress in line. */
    RECONCILE
}
