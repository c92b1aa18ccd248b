package me.loutres.juneau.allocation;

import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;

/** Whether a Service's ExternalNetwork can give it an address (docs/phases-and-conditions.md step 2). */
public sealed interface NetworkResolution {

    /** The network and its pools, in {@code spec.addressPools} order, all present and of the network's type. */
    record Usable(String networkName, String type, List<AddressPool> pools) implements NetworkResolution {
        public Usable {
            pools = List.copyOf(pools);
        }

        /** The pool names in allocation order, as {@link Allocator#allocate} takes them. */
        public List<String> poolNames() {
            // a pool without a name cannot be allocated from (kube stores none; a damaged read may hold one)
            return pools.stream().filter(p -> p != null && p.getMetadata() != null && p.getMetadata().getName() != null)
                    .map(p -> p.getMetadata().getName()).toList();
        }
    }

    /**
     * The configuration cannot work; the message names the object and what to do.
     *
     * @param reason the condition's reason: {@code ExternalNetworkUnavailable}, or {@code NotAllowed} when the network
     *               exists but does not let this Service use it ({@code policy/NetworkAccess})
     */
    record Unavailable(String message, String reason) implements NetworkResolution {
        public Unavailable(String message) {
            this(message, JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE);
        }
    }
}
