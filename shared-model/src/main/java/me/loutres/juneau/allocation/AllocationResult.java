package me.loutres.juneau.allocation;

import java.util.List;

/** What {@link Allocator#allocate} decided for one Service. */
public sealed interface AllocationResult {

    /** The owner holds {@code address} from {@code pool} (new, or the one it already held). */
    record Allocated(String pool, long address) implements AllocationResult {
    }

    /** Every pool of the network is full; the usages are in the network's pool order. */
    record Exhausted(List<PoolUsage> pools) implements AllocationResult {
        public Exhausted {
            pools = List.copyOf(pools);
        }
    }

    /**
     * The requested address is taken; {@code holder} is the owner key ({@code namespace/name}) of the Service
     * holding it, or {@link Allocator#NODE_ADDRESS_HOLDER} when it is a Node's InternalIP in an arp pool.
     */
    record RequestedInUse(long address, String holder) implements AllocationResult {
    }

    /**
     * The requested address is in no usable range of the network's pools (this includes the network and broadcast
     * addresses of CIDRs shorter than /31); {@code poolRanges} lists the usable ranges, e.g.
     * {@code 10.0.0.1-10.0.0.254 (pool-a)}.
     */
    record RequestedOutsidePools(long address, List<String> poolRanges) implements AllocationResult {
        public RequestedOutsidePools {
            poolRanges = List.copyOf(poolRanges);
        }
    }
}
