package me.loutres.juneau.allocation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.PoolEntry;

/**
 * Pure resolution of a Service's ExternalNetwork (SPEC §3.1 step 2). Admission normally prevents every problem
 * reported here; the controller still meets them when objects were created before the webhook ran, or while an
 * object is being deleted.
 */
public final class NetworkResolver {

    private NetworkResolver() {
    }

    /**
     * @param networkName   the name in the Service's annotation
     * @param networkOrNull the ExternalNetwork of that name, or null when it does not exist
     * @param poolLookup    AddressPool by name, null when missing
     */
    public static NetworkResolution resolve(String networkName, ExternalNetwork networkOrNull,
            Function<String, AddressPool> poolLookup) {
        if (networkName == null || networkName.isBlank()) {
            return new NetworkResolution.Unavailable("the Service has no annotation "
                    + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + "; set it to the name of an ExternalNetwork");
        }
        if (networkOrNull == null) {
            return new NetworkResolution.Unavailable("ExternalNetwork \"" + networkName
                    + "\" does not exist; create it, or set annotation " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK
                    + " to an existing ExternalNetwork");
        }
        String type = networkOrNull.getSpec() == null ? null : networkOrNull.getSpec().getType();
        if (!JuneauConstants.MODE_BGP.equals(type) && !JuneauConstants.MODE_ARP.equals(type)) {
            return new NetworkResolution.Unavailable("ExternalNetwork \"" + networkName + "\" has spec.type \""
                    + type + "\"; it must be bgp or arp (re-create the ExternalNetwork with one of them)");
        }
        List<String> poolNames = networkOrNull.getSpec().getAddressPools();
        if (poolNames == null || poolNames.isEmpty()) {
            return new NetworkResolution.Unavailable("ExternalNetwork \"" + networkName
                    + "\" lists no AddressPools; add at least one " + type + " AddressPool to spec.addressPools");
        }
        List<String> problems = new ArrayList<>();
        List<AddressPool> pools = new ArrayList<>();
        for (String poolName : poolNames) {
            AddressPool pool = poolLookup == null ? null : poolLookup.apply(poolName);
            if (pool == null) {
                problems.add("AddressPool \"" + poolName + "\" listed by ExternalNetwork \"" + networkName
                        + "\" does not exist; create it with advertiseMode " + type);
                continue;
            }
            String mode = pool.getSpec() == null ? null : pool.getSpec().getAdvertiseMode();
            if (!type.equals(mode)) {
                problems.add("AddressPool \"" + poolName + "\" has advertiseMode " + mode + " but ExternalNetwork \""
                        + networkName + "\" has type " + type + "; list only " + type
                        + " pools in this ExternalNetwork");
                continue;
            }
            List<String> entries = pool.getSpec().getAddresses();
            if (entries == null || entries.isEmpty()) {
                problems.add("AddressPool \"" + poolName + "\" has no addresses; add an entry to spec.addresses");
                continue;
            }
            String bad = firstInvalidEntry(mode, entries);
            if (bad != null) {
                problems.add("AddressPool \"" + poolName + "\" has an invalid entry: " + bad);
                continue;
            }
            pools.add(pool);
        }
        if (!problems.isEmpty()) {
            return new NetworkResolution.Unavailable(String.join("; ", problems));
        }
        return new NetworkResolution.Usable(networkName, type, pools);
    }

    private static String firstInvalidEntry(String mode, List<String> entries) {
        for (String e : entries) {
            try {
                PoolEntry.parse(mode, e);
            } catch (InvalidAddressException ex) {
                return ex.getMessage();
            }
        }
        return null;
    }
}
