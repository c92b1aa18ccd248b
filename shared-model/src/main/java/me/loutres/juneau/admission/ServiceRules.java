package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpPoolEntry;
import me.loutres.juneau.ip.IpRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.ip.PoolEntry;
import me.loutres.juneau.policy.DefaultNetwork;
import me.loutres.juneau.policy.FamilyPolicy;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.NetworkAccess;
import me.loutres.juneau.policy.NetworkChoice;
import me.loutres.juneau.policy.PoolFamilies;
import me.loutres.juneau.policy.RequestedIps;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.RangeIndex;
import me.loutres.juneau.view.WideRangeIndex;

/** docs/admission.md: the validating webhook of managed Services (CREATE, UPDATE). */
final class ServiceRules implements KindRules {
    private final ManagedServices managed;

    ServiceRules(ManagedServices managed) {
        this.managed = managed;
    }

    /**
     * The Service a CREATE or UPDATE of the Service itself writes; null for anything else (a DELETE, a status or other
     * subresource write, a request without an object), which the Service webhooks let through untouched. Only the
     * fields the rules read ({@link ServiceFields}); an unreadable Service is denied as when it was bound whole.
     */
    static ServiceFields writtenService(Review review) {
        if (review.object() == null || !(review.isCreate() || review.isUpdate()) || !review.subResource().isEmpty()) {
            return null;
        }
        return ServiceFields.read(review.object());
    }

    /** The existing Service on UPDATE, null otherwise. */
    private static ServiceFields oldService(Review review) {
        return review.isUpdate() && review.oldObject() != null ? ServiceFields.read(review.oldObject()) : null;
    }

    private boolean manages(ServiceFields service) {
        return managed.manages(service.type(), service.loadBalancerClass());
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        ServiceFields service = writtenService(review);
        if (service == null) {
            return verdict;
        }
        if (!manages(service)) {
            unmanagedWithOurAnnotations(service, managed).ifPresent(verdict::warn);
            return verdict;
        }
        if (service.loadBalancerIP() != null && !service.loadBalancerIP().isBlank()) {
            verdict.warn("spec.loadBalancerIP " + Texts.quote(service.loadBalancerIP()) + " is not used by Juneau; "
                    + "set annotation " + JuneauConstants.ANNOTATION_REQUESTED_IP + " to request an address");
        }
        ServiceAnnotationHints.of(service.annotationKeys()).forEach(verdict::warn);
        ServiceFields old = oldService(review);
        if (old != null && manages(old) && sameAdmissionFields(old, service)) {
            // so existing Services survive later changes of the pools and networks they reference
            return verdict;
        }
        checkTrafficPolicy(service, verdict);
        checkPorts(service, verdict);
        FamilyPolicy families = FamilyPolicy.of(service.ipFamilyPolicy(), service.ipFamilies());
        families.problems().forEach(verdict::problem);
        String namespace = review.objectNamespace();
        String name = review.objectName();
        String network = annotation(service, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
        boolean networkNameOk;
        // who asks, for spec.serviceAllocation (docs/install.md, "Sharing a cluster between teams"); cross-object,
        // so not for an object being deleted
        NetworkAccess.Requester who = review.beingDeleted() ? null : new NetworkAccess.Requester(namespace, name,
                view.namespaceLabels(namespace).orElse(null), service.labels());
        if (network == null || network.isEmpty()) {
            // no annotation: the default network serves it, as the controller will choose (docs/api-reference.md)
            NetworkChoice choice = DefaultNetwork.choose(network, view.serviceLoadBalancer(namespace, name).orElse(null),
                    view.defaultNetworks(), who);
            networkNameOk = choice instanceof NetworkChoice.Named;
            if (choice instanceof NetworkChoice.Named n) {
                network = n.network();
            } else if (choice instanceof NetworkChoice.Unresolved u && u.notAllowed()) {
                verdict.problem(Texts.NETWORK_FIELD + ": " + u.message());
            } else {
                noNetwork(network, view, review, verdict);
            }
        } else {
            networkNameOk = checkNetworkName(network, verdict);
        }
        String requested = requestedIp(service);
        RequestedIps requestedIps = RequestedIps.parse(requested, Texts.REQUESTED_IP_FIELD);
        requestedIps.problems().forEach(verdict::problem);
        checkRequestedFamilies(requestedIps, families, verdict);
        // an address of a family the Service does not ask for is denied above, not looked for in the pools as well
        Long requestedIp = requestedIps.of(IpFamily.IPV4).filter(a -> families.families().contains(IpFamily.IPV4))
                .map(IpAddress::ipv4Value).orElse(null);
        IpAddress requestedV6 = requestedIps.of(IpFamily.IPV6).filter(a -> families.families().contains(IpFamily.IPV6))
                .orElse(null);
        if (review.beingDeleted()) {
            return verdict;
        }
        if (networkNameOk) {
            Optional<ExternalNetwork> net = view.externalNetwork(network);
            if (net.isEmpty()) {
                verdict.problem(Texts.NETWORK_FIELD + ": ExternalNetwork " + Texts.quote(network) + " does not exist; existing: "
                        + Texts.list(view.names(ClusterView.NamedKind.EXTERNAL_NETWORK)));
            } else {
                NetworkAccess.refusal(net.get(), who).ifPresent(m -> verdict.problem(Texts.NETWORK_FIELD + ": " + m));
                List<AddressPool> pools = matchingPools(net.get(), view, verdict);
                if (!pools.isEmpty() && families.problems().isEmpty()) {
                    checkFamiliesServed(network, pools, families, verdict);
                }
                if (requestedIp != null && !pools.isEmpty()) {
                    if (checkRequestedInPools(Ipv4.format(requestedIp), requestedIp, network, pools, verdict)) {
                        checkRequestedNotANode(requestedIp, net.get(), view, verdict);
                    }
                }
                if (requestedV6 != null && !pools.isEmpty()) {
                    if (checkRequestedInIpv6Pools(requestedV6, network, pools, verdict)) {
                        checkRequestedNotAnIpv6Node(requestedV6, net.get(), view, verdict);
                    }
                }
            }
        }
        if (requestedIp != null) {
            checkRequestedFree(requestedIp, namespace, name, view, verdict);
        }
        if (old != null) {
            checkFixedVip(old, service, namespace, name, view, verdict);
        }
        return verdict;
    }

    /**
     * A Service that carries {@code juneau.loutres.me/*} annotations but is not managed was most likely meant to be
     * (a missing or misspelled class, or another type): it is allowed untouched, with a warning saying why Juneau
     * ignores it, so it does not sit in {@code <pending>} without a word (docs/api-reference.md, issue "unmanaged but meant to be").
     */
    static Optional<String> unmanagedWithOurAnnotations(ServiceFields s, ManagedServices managed) {
        List<String> ours = s.ourAnnotations().keySet().stream().sorted().toList();
        if (ours.isEmpty()) {
            return Optional.empty();
        }
        String type = s.type();
        String lbClass = s.loadBalancerClass();
        String why;
        if (!"LoadBalancer".equals(type)) {
            why = "spec.type is " + (type == null ? "not set (ClusterIP)" : Texts.quote(type));
        } else if (lbClass == null) {
            why = "spec.loadBalancerClass is not set (the webhook runs without --manage-unclassed)";
        } else {
            why = "spec.loadBalancerClass is " + Texts.quote(lbClass);
        }
        return Optional.of("Juneau ignores this Service although it has annotation" + (ours.size() == 1 ? " " : "s ")
                + String.join(", ", ours) + ": " + why + "; Juneau serves only Services with " + managed.accepted()
                + " (the class can be set only when the Service is created or becomes a LoadBalancer)");
    }

    /** Rule 1, after mutation. */
    private static void checkTrafficPolicy(ServiceFields spec, Verdict verdict) {
        String policy = spec.externalTrafficPolicy();
        if (!ServiceMutation.LOCAL.equals(policy)) {
            verdict.problem("spec.externalTrafficPolicy: " + (policy == null ? "not set" : Texts.quote(policy) + " is not supported")
                    + "; accepted: Local (Juneau announces a VIP only from nodes with a local ready backend)");
        }
    }

    /** Rule 7, ports. */
    private static void checkPorts(ServiceFields spec, Verdict verdict) {
        List<ServiceFields.Port> ports = spec.ports();
        for (int i = 0; i < ports.size(); i++) {
            String protocol = ports.get(i).protocol();
            if (protocol != null && !"TCP".equals(protocol) && !"UDP".equals(protocol)) {
                verdict.problem("spec.ports[" + i + "].protocol: " + Texts.quote(protocol) + " is not supported; accepted: TCP, UDP");
            }
        }
    }

    /**
     * Rule 7, families (docs/dual-stack.md): only what the network can never serve is denied: a family none of its
     * pools holds, or both families from one pool when no pool holds both. Free addresses are the controller's
     * business (the Service waits, Pending).
     */
    private static void checkFamiliesServed(String network, List<AddressPool> pools, FamilyPolicy asked, Verdict verdict) {
        Map<String, Set<IpFamily>> byPool = new LinkedHashMap<>();
        Set<IpFamily> held = EnumSet.noneOf(IpFamily.class);
        for (AddressPool pool : pools) {
            Set<IpFamily> f = PoolFamilies.of(pool);
            byPool.put(Texts.name(pool), f);
            held.addAll(f);
        }
        List<String> described = byPool.entrySet().stream().map(e -> PoolFamilies.describe(e.getKey(), e.getValue())).toList();
        String its = "its pools: " + Texts.list(described);
        if (asked.requiresBoth()) {
            if (byPool.values().stream().noneMatch(f -> f.size() == IpFamily.values().length)) {
                verdict.problem("spec.ipFamilyPolicy: RequireDualStack needs an IPv4 and an IPv6 VIP from one AddressPool, "
                        + "but no AddressPool of ExternalNetwork " + Texts.quote(network) + " holds both families; " + its
                        + "; accepted: PreferDualStack or SingleStack, or add the missing family's entries to one pool");
            }
            return;
        }
        List<IpFamily> wanted = asked.families();
        if (wanted.stream().noneMatch(held::contains)) {
            String names = String.join(" or ", wanted.stream().map(IpFamily::kubeName).toList());
            verdict.problem("spec.ipFamilies: the Service asks for " + asked.describe() + ", but no AddressPool of "
                    + "ExternalNetwork " + Texts.quote(network) + " holds " + names + " addresses; " + its
                    + "; accepted: " + (held.isEmpty() ? "" : "a family its pools hold (" + PoolFamilies.describe(held)
                    + "), or ") + "add " + names + " entries to one of its pools");
        }
    }

    /** Rule 5 per family: each requested address is of a family the Service asks for. */
    private static void checkRequestedFamilies(RequestedIps requested, FamilyPolicy asked, Verdict verdict) {
        requested.byFamily().forEach((family, address) -> {
            if (!asked.families().contains(family)) {
                verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + address + " is an " + family + " address, but the "
                        + "Service asks for " + asked.describe() + " (spec.ipFamilies, spec.ipFamilyPolicy); accepted: "
                        + "an address of " + String.join(" or ", asked.families().stream().map(IpFamily::kubeName).toList())
                        + ", or add " + family + " to spec.ipFamilies with spec.ipFamilyPolicy PreferDualStack or "
                        + "RequireDualStack");
            }
        });
    }

    /**
     * Rule 2 without a name: no annotation (or an empty one) and no single default network. The message says both
     * ways out: name a network, or mark one as the default (docs/api-reference.md, "The default network").
     */
    private static void noNetwork(String network, ClusterView view, Review review, Verdict verdict) {
        List<String> defaults = DefaultNetwork.defaults(view.defaultNetworks());
        String state = network == null ? "missing" : "empty";
        if (defaults.size() > 1) {
            verdict.problem(Texts.NETWORK_FIELD + ": " + state + ", and ExternalNetworks " + Texts.list(defaults)
                    + " are all marked " + DefaultNetwork.MARK + ", so none is the default; set the annotation to one of"
                    + " them, or remove the mark from all but one");
            return;
        }
        String existing = review.beingDeleted() ? ""
                : " (existing: " + Texts.list(view.names(ClusterView.NamedKind.EXTERNAL_NETWORK)) + ")";
        verdict.problem(Texts.NETWORK_FIELD + ": " + state + "; set it to the name of an ExternalNetwork" + existing
                + ", or mark one ExternalNetwork " + DefaultNetwork.MARK + " to serve Services without it");
    }

    /** Rule 2; true when the name can be looked up. */
    private static boolean checkNetworkName(String network, Verdict verdict) {
        if (!Texts.isDns1123Subdomain(network)) {
            verdict.problem(Texts.NETWORK_FIELD + ": " + Texts.quote(network) + " is not a valid ExternalNetwork name; "
                    + Texts.DNS1123_ACCEPTED);
            return false;
        }
        return true;
    }

    /** Rule 4: the pools of the network that exist with the network's mode, in spec order. */
    private static List<AddressPool> matchingPools(ExternalNetwork net, ClusterView view, Verdict verdict) {
        String type = net.getSpec() == null ? null : net.getSpec().getType();
        List<String> names = net.getSpec() == null || net.getSpec().getAddressPools() == null ? List.of()
                : net.getSpec().getAddressPools();
        List<AddressPool> matching = new ArrayList<>();
        List<String> described = new ArrayList<>();
        for (String poolName : names) {
            Optional<AddressPool> pool = view.addressPool(poolName);
            String mode = pool.map(p -> p.getSpec() == null ? null : p.getSpec().getAdvertiseMode()).orElse(null);
            if (pool.isPresent() && type != null && type.equals(mode)) {
                matching.add(pool.get());
            }
            described.add(poolName + (pool.isEmpty() ? " (missing)" : " (advertiseMode " + mode + ")"));
        }
        if (matching.isEmpty()) {
            verdict.problem(Texts.NETWORK_FIELD + ": ExternalNetwork " + Texts.quote(Texts.name(net)) + " (type " + type
                    + ") has no AddressPool with advertiseMode " + type + "; its pools: " + Texts.list(described)
                    + "; create a " + type + " AddressPool and list it in the ExternalNetwork's spec.addressPools");
        }
        return matching;
    }

    /** Rule 5, range part: inside a matching pool and not a network/broadcast address; true when it is. */
    private static boolean checkRequestedInPools(String requested, long ip, String network, List<AddressPool> pools,
            Verdict verdict) {
        List<String> ranges = new ArrayList<>();
        String edge = null;
        for (AddressPool pool : pools) {
            String mode = pool.getSpec().getAdvertiseMode();
            for (String text : pool.getSpec().getAddresses() == null ? List.<String>of() : pool.getSpec().getAddresses()) {
                PoolEntry entry;
                try {
                    entry = PoolEntry.parse(mode, text);
                } catch (InvalidAddressException e) {
                    continue; // the pool's own webhook reports it; it offers no address here
                }
                if (entry.isUsable(ip)) {
                    return true;
                }
                if (entry.isEdge(ip) && edge == null) {
                    edge = (ip == entry.range().first() ? "the network address" : "the broadcast address") + " of "
                            + entry.canonical() + " in AddressPool " + Texts.name(pool);
                }
                ranges.add(entry.usable() + " (AddressPool " + Texts.name(pool) + ")");
            }
        }
        String why = edge != null ? " is " + edge + ", which is never handed out"
                : " is outside every AddressPool of ExternalNetwork " + Texts.quote(network);
        verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + requested + why + "; accepted: an address in " + Texts.list(ranges));
        return false;
    }

    /** Rule 5, arp networks: a Node's InternalIP can never be announced (the ARPAdvertisement would be refused). */
    private static void checkRequestedNotANode(long ip, ExternalNetwork net, ClusterView view, Verdict verdict) {
        if (net.getSpec() == null || !JuneauConstants.MODE_ARP.equals(net.getSpec().getType())) {
            return;
        }
        String node = view.nodeInternalIpsIn(AddressRange.single(ip)).stream().map(RangeIndex.Hit::value)
                .sorted().findFirst().orElse(null);
        if (node != null) {
            verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + Ipv4.format(ip) + " is the InternalIP of Node " + node
                    + "; announcing it by ARP would take the address away from the node; request another address, "
                    + "or remove the annotation to get one allocated");
        }
    }

    /** Rule 5, IPv6: inside an IPv6 entry of a matching pool and not its subnet-router anycast address. */
    private static boolean checkRequestedInIpv6Pools(IpAddress ip, String network, List<AddressPool> pools, Verdict verdict) {
        List<String> ranges = new ArrayList<>();
        String edge = null;
        for (AddressPool pool : pools) {
            String mode = pool.getSpec().getAdvertiseMode();
            for (String text : pool.getSpec().getAddresses() == null ? List.<String>of() : pool.getSpec().getAddresses()) {
                IpPoolEntry entry;
                try {
                    entry = IpPoolEntry.parse(mode, text);
                } catch (InvalidAddressException e) {
                    continue; // the pool's own webhook reports it; it offers no address here
                }
                if (entry.family() != IpFamily.IPV6) {
                    continue;
                }
                if (entry.isUsable(ip)) {
                    return true;
                }
                Optional<String> what = entry.edge(ip);
                if (what.isPresent() && edge == null) {
                    edge = what.get() + " of " + entry.canonical() + " in AddressPool " + Texts.name(pool);
                }
                ranges.add(entry.usable() + " (AddressPool " + Texts.name(pool) + ")");
            }
        }
        String why = edge != null ? " is " + edge + ", which is never handed out"
                : " is outside every AddressPool of ExternalNetwork " + Texts.quote(network);
        verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + ip + why + "; accepted: "
                + (ranges.isEmpty() ? "an IPv4 address: no pool of the network holds IPv6 addresses"
                        : "an address in " + Texts.list(ranges)));
        return false;
    }

    /** Rule 5, arp networks, IPv6: a Node's InternalIP can never be answered for by NDP. */
    private static void checkRequestedNotAnIpv6Node(IpAddress ip, ExternalNetwork net, ClusterView view, Verdict verdict) {
        if (net.getSpec() == null || !JuneauConstants.MODE_ARP.equals(net.getSpec().getType())) {
            return;
        }
        String node = view.ipv6NodeInternalIpsIn(IpRange.single(ip)).stream().map(WideRangeIndex.Hit::value)
                .sorted().findFirst().orElse(null);
        if (node != null) {
            verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + ip + " is the InternalIP of Node " + node
                    + "; answering NDP for it would take the address away from the node; request another address, "
                    + "or remove the annotation to get one allocated");
        }
    }

    /** Rule 6. */
    private static void checkRequestedFree(long ip, String namespace, String name, ClusterView view, Verdict verdict) {
        for (ServiceLoadBalancer slb : view.serviceLoadBalancersWithVip(ip)) {
            if (Texts.beingDeleted(slb)) {
                continue;
            }
            String ns = slb.getMetadata().getNamespace();
            if (Objects.equals(ns, namespace) && Objects.equals(Texts.name(slb), name)) {
                continue;
            }
            verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + Ipv4.format(ip) + " is already the VIP of ServiceLoadBalancer "
                    + ns + "/" + Texts.name(slb) + "; request a free address, or remove the annotation to get one allocated");
            return;
        }
    }

    /** Rule 8: once the ServiceLoadBalancer has a VIP, the annotations that chose it are fixed. */
    private static void checkFixedVip(ServiceFields old, ServiceFields service, String namespace, String name, ClusterView view,
            Verdict verdict) {
        Optional<ServiceLoadBalancer> slb = view.serviceLoadBalancer(namespace, name);
        String vip = slb.map(s -> s.getStatus() == null ? null : s.getStatus().getVip()).orElse(null);
        if (vip == null || vip.isEmpty()) {
            return;
        }
        String fixed = "the VIP of a Service is fixed once allocated (" + vip + "); delete and re-create the Service";
        String oldNet = annotation(old, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
        String newNet = annotation(service, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
        if (!Objects.equals(oldNet, newNet)) {
            verdict.problem(Texts.NETWORK_FIELD + ": " + Texts.change(oldNet, newNet) + "; " + fixed
                    + " to use another ExternalNetwork");
        }
        String oldIp = requestedIp(old);
        String newIp = requestedIp(service);
        // removing the annotation keeps the VIP, so only a different address is a change of the VIP; an address of
        // the other family adds a second VIP (docs/dual-stack.md) and leaves this one alone
        if (!Objects.equals(oldIp, newIp) && newIp != null && changesVip(newIp, vip)) {
            verdict.problem(Texts.REQUESTED_IP_FIELD + ": " + Texts.change(oldIp, newIp) + "; accepted: " + Texts.quote(vip)
                    + " or no annotation; " + fixed
                    + " to get another address");
        }
    }

    /** True when the requested annotation asks for another address than the VIP, of the VIP's family. */
    private static boolean changesVip(String requested, String vip) {
        RequestedIps now = RequestedIps.parse(requested, Texts.REQUESTED_IP_FIELD);
        if (!now.problems().isEmpty() || !IpAddress.isValid(vip)) {
            return !requested.equals(vip);
        }
        IpAddress current = IpAddress.parse(vip);
        return now.of(current.family()).map(a -> !a.equals(current)).orElse(false);
    }

    /** The requested IP, trimmed; null when absent, empty or only whitespace (Helm renders unset values as ""). */
    static String requestedIp(ServiceFields s) {
        String ip = annotation(s, JuneauConstants.ANNOTATION_REQUESTED_IP);
        return ip == null || ip.isEmpty() ? null : ip;
    }

    /** The trimmed annotation value, null when absent. */
    static String annotation(ServiceFields s, String key) {
        return s.annotation(key);
    }

    /** True when none of class, type, externalTrafficPolicy, the two annotations, ports, ipFamilies, ipFamilyPolicy changed. */
    static boolean sameAdmissionFields(ServiceFields x, ServiceFields y) {
        return Objects.equals(x.loadBalancerClass(), y.loadBalancerClass())
                && Objects.equals(x.type(), y.type())
                && Objects.equals(x.externalTrafficPolicy(), y.externalTrafficPolicy())
                && Objects.equals(annotation(x, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK),
                        annotation(y, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK))
                && Objects.equals(requestedIp(x), requestedIp(y))
                // ports without nodePort (ServiceFields.Port): the API server may fill that in differently on each write
                && x.ports().equals(y.ports())
                && x.ipFamilies().equals(y.ipFamilies())
                && Objects.equals(x.ipFamilyPolicy(), y.ipFamilyPolicy());
    }
}
