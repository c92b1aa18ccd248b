package me.loutres.juneau.plan;

import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/** The write a pass makes to the ServiceLoadBalancer itself (metadata and spec; the status is separate). */
public sealed interface SlbWrite {

    record None() implements SlbWrite {
    }

    record Create(ServiceLoadBalancer slb) implements SlbWrite {
    }

    /** Metadata and spec, at the resourceVersion read (finalizer added or removed, owner, spec). */
    record Update(ServiceLoadBalancer slb) implements SlbWrite {
    }

    record Delete(ServiceLoadBalancer slb) implements SlbWrite {
    }
}
