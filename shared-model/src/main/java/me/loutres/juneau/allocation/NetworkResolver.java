package me.loutres.juneau.allocation;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.policy.NetworkAccess;
import me.loutres.juneau.policy.NetworkChoice;

/**
 * Pure resolution of a Service's ExternalNetwork (docs/phases-and-conditions.md step 2). Admission normally prevents every problem
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
        return resolve(networkName, networkOrNull, poolLookup, o -> Optional.empty());
    }

    /**
     * The same, for a reader that knows which objects cannot be read as the API server stores them
     * ({@code KubeReader.check} of a typed object: a null list entry, for instance): such a network or pool gives no
     * address either, and the message says why.
     *
     * @param unreadable the problem of an object, or empty when it reads cleanly
     */
    public static NetworkResolution resolve(String networkName, ExternalNetwork networkOrNull,
            Function<String, AddressPool> poolLookup, Function<HasMetadata, Optional<String>> unreadable) {
        if (networkName == null || networkName.isBlank()) {
            return new NetworkResolution.Unavailable("the Service has no annotation "
                    + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + "; set it to the name of an ExternalNetwork");
        }
        if (networkOrNull == null) {
            return new NetworkResolution.Unavailable("ExternalNetwork \"" + networkName
                    + "\" does not exist; create it, or set annotation " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK
                    + " to an existing ExternalNetwork");
        }
        List<String> malformed = malformed(networkName, networkOrNull, unreadable.apply(networkOrNull));
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
            Optional<String> unread = unreadable.apply(pool);
            if (unread.isPresent()) {
                problems.add("AddressPool \"" + poolName + "\" cannot be read: " + unread.get()
                        + "; fix it (kubectl edit addresspool " + poolName + ")");
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
     * The network a Service asks for ({@code DefaultNetwork.choose}), resolved for that Service: the controller's pass
     * and {@code juneau validate}'s forecast read it from here, so they cannot disagree. A network that does not let
     * the Service use it ({@link NetworkAccess}) is {@code Unavailable} with reason {@code NotAllowed}, whatever else
     * it is; a Service holding a VIP keeps it (docs/phases-and-conditions.md).
     *
     * @param choice     which network
     * @param networks   ExternalNetwork by name, null when missing
     * @param who        the Service asking
     * @param unreadable the reader's problem with an object, or empty
     */
    public static NetworkResolution resolve(NetworkChoice choice, Function<String, ExternalNetwork> networks,
            Function<String, AddressPool> poolLookup, Function<HasMetadata, Optional<String>> unreadable,
            NetworkAccess.Requester who) {
        if (choice instanceof NetworkChoice.Unresolved u) {
            return u.notAllowed() ? new NetworkResolution.Unavailable(u.message(), JuneauConstants.REASON_NOT_ALLOWED)
                    : new NetworkResolution.Unavailable(u.message());
        }
        String name = choice.networkOrNull();
        ExternalNetwork network = name == null ? null : networks.apply(name);
        Optional<String> refused = network == null || who == null ? Optional.empty() : NetworkAccess.refusal(network, who);
        if (refused.isPresent()) {
            return new NetworkResolution.Unavailable(refused.get() + "; allow it in the ExternalNetwork's"
                    + " spec.serviceAllocation, or re-create the Service with annotation "
                    + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + " naming a network it may use",
                    JuneauConstants.REASON_NOT_ALLOWED);
        }
        return resolve(name, network, poolLookup, unreadable);
    }

    /**
     * What admission would have denied in the ExternalNetwork itself (docs/api-reference.md), one line per problem naming the
     * field and the value: a {@code spec.type} that is not bgp or arp, no pools, an entry of
     * {@code spec.addressPools} that is null, empty or listed twice. Such a network exists only if it was stored
     * around the webhook; it gives no address (fail closed) until it is fixed. Empty when the network reads cleanly.
     */
    public static List<String> malformed(String networkName, ExternalNetwork network) {
        return malformed(networkName, network, Optional.empty());
    }

    /**
     * {@link #malformed(String, ExternalNetwork)}, or else the reader's problem with the object ({@code unreadable},
     * e.g. a null entry elsewhere in it) as one line naming the network. Empty when it reads cleanly.
     */
    public static List<String> malformed(String networkName, ExternalNetwork network, Optional<String> unreadable) {
        if (network == null) {
            return List.of();
        }
        List<String> own = entryProblems(networkName, network);
        if (own.isEmpty() && unreadable.isPresent()) {
            return List.of("ExternalNetwork \"" + networkName + "\" cannot be read: " + unreadable.get()
                    + "; fix it (kubectl edit externalnetwork " + networkName + ")");
        }
        return own;
    }

    private static List<String> entryProblems(String networkName, ExternalNetwork network) {
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
        List<String> problems = List.of();
        for (int i = 0; i < poolNames.size(); i++) {
            String entry = poolNames.get(i);
            if (entry == null || entry.isBlank()) {
                problems = added(problems, field(networkName, i) + " is " + (entry == null ? "null"
                        : "\"" + entry + "\"") + ", not an AddressPool name; remove the entry or name a " + type
                        + " AddressPool");
                continue;
            }
            // a handful of names: a scan allocates nothing (this runs on every reconcile of every Service)
            int j = poolNames.indexOf(entry);
            if (j < i) {
                problems = added(problems, field(networkName, i) + " \"" + entry + "\" is already listed at spec.addressPools[" + j
                        + "]; list each AddressPool once");
            }
        }
        return problems;
    }

    private static String field(String networkName, int index) {
        return "ExternalNetwork \"" + networkName + "\" spec.addressPools[" + index + "]";
    }

    private static List<String> added(List<String> list, String problem) {
        List<String> out = list.isEmpty() ? new ArrayList<>() : list;
        out.add(problem);
        return out;
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
