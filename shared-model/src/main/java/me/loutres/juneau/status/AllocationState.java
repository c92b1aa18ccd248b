package me.loutres.juneau.status;

import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.ip.Ipv4;

/** Where a Service stands with its address, as the status shows it. */
public sealed interface AllocationState {

    /** Holds {@code vip} (dotted) from {@code pool}. */
    record Allocated(String vip, String pool) implements AllocationState {
    }

    /** No VIP yet but it may come: reasons {@code PoolExhausted}, {@code RequestedIPInUse},
     * {@code AddressConflict}. Phase Pending. */
    record Pending(String reason, String message) implements AllocationState {
    }

    /**
     * The configuration cannot work: reasons {@code InvalidConfig}, {@code ExternalNetworkUnavailable},
     * {@code NotAllowed}. Phase Error.
     */
    record Failed(String reason, String message) implements AllocationState {
    }

    /**
     * Holds {@code vip} from {@code pool}, but the network cannot work any more (reason
     * {@code ExternalNetworkUnavailable}) or no longer lets the Service use it ({@code NotAllowed}): the record of
     * truth is kept and the phase is Error until it is fixed.
     */
    record KeptUnusable(String vip, String pool, String reason, String message) implements AllocationState {
    }

    /**
     * The state an allocator decision means, with the message a person needs: the controller's status and
     * {@code juneau validate}'s forecast both read it from here, so they cannot disagree.
     */
    public static AllocationState of(AllocationResult result, String network) {
        if (result instanceof AllocationResult.Allocated a) {
            return new Allocated(Ipv4.format(a.address()), a.pool());
        }
        if (result instanceof AllocationResult.Exhausted e) {
            return new Pending(JuneauConstants.REASON_POOL_EXHAUSTED, Messages.exhausted(network, e.pools()));
        }
        if (result instanceof AllocationResult.RequestedInUse u && (Allocator.NODE_ADDRESS_HOLDER.equals(u.holder())
                || Allocator.CLUSTER_RANGE_HOLDER.equals(u.holder()))) {
            // no release will ever free it: a configuration mistake, not a wait (docs/admission.md rule 5; a range
            // the cluster uses, docs/allocation.md "Pools overlapping the cluster's ranges")
            return new Failed(JuneauConstants.REASON_INVALID_CONFIG,
                    Messages.requestedInUse(Ipv4.format(u.address()), u.holder()));
        }
        if (result instanceof AllocationResult.RequestedInUse u) {
            return new Pending(JuneauConstants.REASON_REQUESTED_IP_IN_USE,
                    Messages.requestedInUse(Ipv4.format(u.address()), u.holder()));
        }
        AllocationResult.RequestedOutsidePools o = (AllocationResult.RequestedOutsidePools) result;
        return new Failed(JuneauConstants.REASON_INVALID_CONFIG,
                Messages.requestedOutside(Ipv4.format(o.address()), network, o.poolRanges()));
    }

    /**
     * {@code Pending(AddressConflict)}: the status recorded {@code vip}, which an older allocation of {@code holder}
     * keeps; the VIP is withdrawn and the next reconcile allocates another one.
     */
    public static AllocationState conflict(String vip, String holder) {
        return new Pending(JuneauConstants.REASON_ADDRESS_CONFLICT, Messages.addressConflict(vip, holder));
    }

    /** {@code Failed(ExternalNetworkUnavailable)} for an unusable network, {@code Failed(NotAllowed)} for a refused one. */
    public static AllocationState of(NetworkResolution.Unavailable unavailable) {
        return new Failed(unavailable.reason(), unavailable.message());
    }
}
