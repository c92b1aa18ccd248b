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
        List<String> malformed = malformed(networkName, networkOrNull);
        if (!malformed.isEmpty()) {
            return new NetworkResolution.Unavailable(String.join("; ", malformed));
        }
        String type = networkOrNull.getSpec().getType();
        List<String> poolNames = networkOrNull.getSpec().getAddressPools();
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

    /**
     * What admission would have denied in the ExternalNetwork itself (SPEC §1.2), one line per problem naming the
     * field and the value: a {@code spec.type} that is not bgp or arp, no pools, an entry of
     * {@code spec.addressPools} that is null, empty or listed twice. Such a network exists only if it was stored
     * around the webhook; it gives no address (fail closed) until it is fixed. Empty when the network reads cleanly.
     */
    public static List<String> malformed(String networkName, ExternalNetwork network) {
        if (network == null) {
            return List.of();
        }
        String type = network.getSpec() == null ? null : network.getSpec().getType();
        if (!JuneauConstants.MODE_BGP.equals(type) && !JuneauConstants.MODE_ARP.equals(type)) {
            return List.of("ExternalNetwork \"" + networkName + "\" has spec.type \"" + type
                    + "\"; it must be bgp or arp (re-create the ExternalNetwork with one of them)");
        }
        List<String> poolNames = network.getSpec().getAddressPools();
        if (poolNames == null || poolNames.isEmpty()) {
            return List.of("ExternalNetwork \"" + networkName + "\" lists no AddressPools; add at least one " + type
                    + " AddressPool to spec.addressPools");
        }
        List<String> problems = new ArrayList<>();
        java.util.Map<String, Integer> first = new java.util.HashMap<>();
        for (int i = 0; i < poolNames.size(); i++) {
            String entry = poolNames.get(i);
            String field = "ExternalNetwork \"" + networkName + "\" spec.addressPools[" + i + "]";
            if (entry == null || entry.isBlank()) {
                problems.add(field + " is " + (entry == null ? "null" : "\"" + entry + "\"")
                        + ", not an AddressPool name; remove the entry or name a " + type + " AddressPool");
                continue;
            }
            Integer j = first.putIfAbsent(entry, i);
            if (j != null) {
                problems.add(field + " \"" + entry + "\" is already listed at spec.addressPools[" + j
                        + "]; list each AddressPool once");
            }
        }
        return problems;
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
