package me.loutres.juneau.plan;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.api.v1alpha1.ServiceRef;
import me.loutres.juneau.election.ArpElection;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.policy.FamilyPolicy;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.policy.RequestedIps;
import me.loutres.juneau.selection.NodeEligibility;
import me.loutres.juneau.status.AllocationState;
import me.loutres.juneau.status.BackendState;
import me.loutres.juneau.status.Backends;
import me.loutres.juneau.status.Messages;
import me.loutres.juneau.status.StatusCalculator;
import me.loutres.juneau.status.StatusInput;

/**
 * The decisions of one Service reconcile (docs/phases-and-conditions.md), as pure functions of what was read. The
 * controller calls one: {@link #pass}, with one {@link ServiceSnapshot} of the key, and gets the whole
 * {@link DesiredService} back. Its steps are the functions below, in order:
 * <ol>
 *   <li>{@link #lifecycle}: which path the key takes;</li>
 *   <li>{@link #shell}: the ServiceLoadBalancer's metadata and spec to create or update, if any;</li>
 *   <li>{@link #need}: what the allocator must do (keep, ask, nothing, or leave a malformed record alone);</li>
 *   <li>{@link #plan}: status with conditions, ARP action, ingress, events and warnings.</li>
 * </ol>
 */
public final class ServicePlanner {
    static final String IP_MODE_VIP = "VIP";
    public static final String WARNING_PORTS = JuneauConstants.EVENT_TARGET_PORT_NOT_FOUND;
    public static final String WARNING_ARP_CONFLICT = JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT;

    private ServicePlanner() {
    }

    /**
     * The whole desired state of the key read in {@code snapshot} (docs/design.md), in one call: the allocator's
     * answer is read from the snapshot's view and named in the plan; the generation a shell write returns and a
     * refusal of the advertisement are placeholders the caller fills ({@link DesiredService#statusOn},
     * {@link DesiredService#refused}).
     */
    public static DesiredService pass(ServiceSnapshot snapshot) {
        return PassPlanner.plan(snapshot);
    }

    // ---- 1. lifecycle ----

    /**
     * The path of a key. Total: an object without {@code metadata} (kube-apiserver stores none; a fuzzed or restored
     * read may hand one over) cannot be acted on safely, so the key is left alone ({@link Lifecycle#NOTHING}).
     */
    public static Lifecycle lifecycle(ManagedServices managed, Service svc, ServiceLoadBalancer slb) {
        if ((slb != null && slb.getMetadata() == null) || (svc != null && svc.getMetadata() == null)) {
            return Lifecycle.NOTHING;
        }
        if (slb != null && slb.getMetadata().getDeletionTimestamp() != null) {
            return hasFinalizer(slb) ? Lifecycle.FINALIZE : Lifecycle.NOTHING;
        }
        if (!managed.manages(svc) || svc.getMetadata().getDeletionTimestamp() != null) {
            return Lifecycle.FORGET;
        }
        if (slb != null && !ownedBy(slb, svc)) {
            return Lifecycle.REPLACE_STALE;
        }
        return Lifecycle.RECONCILE;
    }

    // ---- 2. the object itself ----

    /** The spec the Service's annotations ask for (trimmed; an empty value is no value). */
    public static ServiceLoadBalancerSpec desiredSpec(Service svc) {
        return desiredSpec(svc, annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK));
    }

    /**
     * The spec with the network chosen for the Service ({@code DefaultNetwork.choose}: its annotation, else the
     * default network), so the ServiceLoadBalancer shows which network serves it; null when none can.
     */
    public static ServiceLoadBalancerSpec desiredSpec(Service svc, String network) {
        ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
        spec.setServiceRef(new ServiceRef(svc.getMetadata() == null ? null : svc.getMetadata().getName()));
        spec.setExternalNetwork(trimmed(network));
        spec.setRequestedIP(trimmed(annotation(svc, JuneauConstants.ANNOTATION_REQUESTED_IP)));
        return spec;
    }

    /**
     * The ServiceLoadBalancer to create (when {@code slb} is null) or to update (spec, finalizer, owner); empty when
     * it is right as it is.
     */
    public static Optional<ServiceLoadBalancer> shell(Service svc, ServiceLoadBalancer slb) {
        return shell(svc, slb, svc == null ? null : annotation(svc, JuneauConstants.ANNOTATION_EXTERNAL_NETWORK));
    }

    /** {@link #shell(Service, ServiceLoadBalancer)} with the network chosen for the Service (see {@link #desiredSpec(Service, String)}). */
    public static Optional<ServiceLoadBalancer> shell(Service svc, ServiceLoadBalancer slb, String network) {
        if (svc == null || svc.getMetadata() == null) {
            return Optional.empty(); // nothing to name the object after (lifecycle leaves such a key alone)
        }
        ServiceLoadBalancerSpec spec = desiredSpec(svc, network);
        OwnerReference owner = new OwnerReferenceBuilder().withApiVersion("v1").withKind("Service")
                .withName(svc.getMetadata().getName()).withUid(svc.getMetadata().getUid()).withController(true)
                .build();
        if (slb == null) {
            ServiceLoadBalancer created = new ServiceLoadBalancer();
            created.setMetadata(new ObjectMetaBuilder().withName(svc.getMetadata().getName())
                    .withNamespace(svc.getMetadata().getNamespace()).withOwnerReferences(owner)
                    .withFinalizers(JuneauConstants.FINALIZER).build());
            created.setSpec(spec);
            return Optional.of(created);
        }
        boolean finalizer = hasFinalizer(slb);
        boolean hasOwner = controllerUid(slb) != null;
        if (spec.equals(slb.getSpec()) && finalizer && hasOwner) {
            return Optional.empty();
        }
        ServiceLoadBalancer updated = new ServiceLoadBalancer();
        ObjectMetaBuilder meta = slb.getMetadata() == null
                ? new ObjectMetaBuilder().withName(svc.getMetadata().getName())
                        .withNamespace(svc.getMetadata().getNamespace())
                : new ObjectMetaBuilder(slb.getMetadata());
        if (!finalizer) {
            List<String> finalizers = new ArrayList<>(slb.getMetadata() == null || slb.getMetadata().getFinalizers() == null
                    ? List.of() : slb.getMetadata().getFinalizers());
            finalizers.removeIf(Objects::isNull);
            finalizers.add(JuneauConstants.FINALIZER);
            meta.withFinalizers(finalizers);
        }
        if (!hasOwner) {
            // a controller reference that names no uid is no owner (the garbage collector could not follow it, and a
            // second controller reference would be refused): it gives way to ours, as do null entries
            List<OwnerReference> refs = new ArrayList<>(slb.getMetadata() == null
                    || slb.getMetadata().getOwnerReferences() == null ? List.of() : slb.getMetadata().getOwnerReferences());
            refs.removeIf(r -> r == null || (Boolean.TRUE.equals(r.getController()) && trimmed(r.getUid()) == null));
            refs.add(owner);
            meta.withOwnerReferences(refs);
        }
        updated.setMetadata(meta.build());
        updated.setSpec(spec);
        updated.setStatus(slb.getStatus());
        return Optional.of(updated);
    }

    // ---- 3. allocation ----

    /**
     * What the allocator must do. {@code nodeAddresses}: Node InternalIPs (IPv4 as numbers) → Node name; a requested
     * IP among them cannot be announced by ARP (docs/admission.md rule 5).
     */
    public static AllocationNeed need(ServiceLoadBalancer slb, NetworkResolution resolution,
            Map<Long, String> nodeAddresses) {
        ServiceLoadBalancerStatus st = slb == null ? null : slb.getStatus();
        String vipText = st == null ? null : trimmed(st.getVip());
        if (vipText != null) {
            OptionalLong parsed = parse(vipText);
            String pool = trimmed(st.getAddressPool());
            if (parsed.isEmpty()) {
                return new AllocationNeed.Malformed("status.vip is \"" + st.getVip() + "\", not an IPv4 address; the"
                        + " controller leaves this ServiceLoadBalancer alone: delete and re-create the Service", parsed);
            }
            if (pool == null) {
                return new AllocationNeed.Malformed("status.vip " + vipText + " has no status.addressPool; the"
                        + " address stays reserved and the controller leaves this ServiceLoadBalancer alone: delete"
                        + " and re-create the Service", parsed);
            }
            AllocationState state = resolution instanceof NetworkResolution.Unavailable un
                    ? new AllocationState.KeptUnusable(vipText, pool, un.reason(), un.message())
                    : new AllocationState.Allocated(vipText, pool);
            return new AllocationNeed.Keep(vipText, parsed.getAsLong(), pool, state);
        }
        if (resolution instanceof NetworkResolution.Unavailable un) {
            return new AllocationNeed.Decided(AllocationState.of(un));
        }
        if (!(resolution instanceof NetworkResolution.Usable usable)) {
            return new AllocationNeed.Decided(new AllocationState.Failed(
                    JuneauConstants.REASON_EXTERNAL_NETWORK_UNAVAILABLE, "the ExternalNetwork was not resolved; the"
                            + " controller retries when the ExternalNetwork or its AddressPools change"));
        }
        String requestedText = slb == null || slb.getSpec() == null ? null : trimmed(slb.getSpec().getRequestedIP());
        if (requestedText == null) {
            return new AllocationNeed.Allocate(usable.networkName(), usable.poolNames(), OptionalLong.empty());
        }
        // "v4,v6" (docs/dual-stack.md): the IPv4 one is what this allocator can take; IPv6 VIPs are not handed out yet
        RequestedIps perFamily = RequestedIps.parse(requestedText, "annotation " + JuneauConstants.ANNOTATION_REQUESTED_IP);
        OptionalLong requested = perFamily.problems().isEmpty() && perFamily.of(IpFamily.IPV4).isPresent()
                ? OptionalLong.of(perFamily.of(IpFamily.IPV4).get().ipv4Value()) : parse(requestedText);
        if (requested.isEmpty() && perFamily.problems().isEmpty() && !perFamily.isEmpty()) {
            return new AllocationNeed.Allocate(usable.networkName(), usable.poolNames(), OptionalLong.empty());
        }
        if (requested.isEmpty()) {
            return new AllocationNeed.Decided(new AllocationState.Failed(JuneauConstants.REASON_INVALID_CONFIG,
                    "annotation " + JuneauConstants.ANNOTATION_REQUESTED_IP + " is \"" + requestedText
                            + "\", which is not an IPv4 address; set it to one address inside the AddressPools of"
                            + " ExternalNetwork \"" + usable.networkName() + "\", or remove it"));
        }
        String node = nodeAddresses == null ? null : nodeAddresses.get(requested.getAsLong());
        if (node != null && JuneauConstants.MODE_ARP.equals(usable.type())) {
            return new AllocationNeed.Decided(new AllocationState.Failed(JuneauConstants.REASON_INVALID_CONFIG,
                    "requested IP " + requestedText + " is the InternalIP of Node " + node + ", which cannot be"
                            + " announced by ARP from another node; set annotation "
                            + JuneauConstants.ANNOTATION_REQUESTED_IP + " to another address, or remove it"));
        }
        return new AllocationNeed.Allocate(usable.networkName(), usable.poolNames(), requested);
    }

    /**
     * The allocator hands out IPv4 VIPs only so far (docs/dual-stack.md): a Service whose first family is IPv6, or
     * that requires both families, waits Pending with words saying so, rather than getting an IPv4 VIP it did not ask
     * for. A PreferDualStack Service with IPv4 first gets its IPv4 VIP, as when no pool has IPv6 addresses free.
     */
    public static AllocationNeed servedFamilies(Service svc, AllocationNeed need) {
        if (!(need instanceof AllocationNeed.Allocate) || svc == null || svc.getSpec() == null) {
            return need;
        }
        FamilyPolicy asked = FamilyPolicy.of(svc.getSpec().getIpFamilyPolicy(), svc.getSpec().getIpFamilies());
        if (asked.families().get(0) == IpFamily.IPV4 && !asked.requiresBoth()) {
            return need;
        }
        return new AllocationNeed.Decided(new AllocationState.Pending(JuneauConstants.REASON_FAMILY_NOT_SERVED,
                "the Service asks for " + asked.describe() + ", but this controller hands out IPv4 VIPs only so far"
                        + " (IPv6 pool entries are admitted and reserved, not yet handed out); use spec.ipFamilies"
                        + " [IPv4] or PreferDualStack with IPv4 first to get an IPv4 VIP now"));
    }

    /**
     * A ServiceLoadBalancer that cannot be read as the API server stores it ({@code KubeReader.check}: a null list
     * entry in its status, for instance) is treated as a malformed status (docs/phases-and-conditions.md): left alone, said once, its
     * address kept reserved when {@code status.vip} parses.
     */
    public static AllocationNeed.Malformed unreadable(ServiceLoadBalancer slb, String problem) {
        String vip = slb == null || slb.getStatus() == null ? null : trimmed(slb.getStatus().getVip());
        return new AllocationNeed.Malformed("it cannot be read: " + problem + "; the controller leaves this"
                + " ServiceLoadBalancer alone" + (vip == null ? "" : " and VIP " + vip + " stays reserved")
                + ": delete and re-create the Service", vip == null ? OptionalLong.empty() : parse(vip));
    }

    // ---- 4. the plan ----

    public static ServicePlan plan(PlanInput in) {
        return plan(parts(in), in.denial());
    }

    /**
     * Step 4 up to the status: the ARP action, the warnings and every input of the status but a refusal of this
     * pass's writes, which only the API server's answer tells ({@link #plan(StatusParts, WriteDenial)}).
     */
    static StatusParts parts(PlanInput in) {
        ServiceLoadBalancer slb = in.slb();
        // the SLB has its Service's name; either may lack metadata in a damaged read (kube stores none without)
        String ns = firstNonNull(namespaceOf(slb), namespaceOf(in.service()));
        String name = firstNonNull(nameOf(slb), nameOf(in.service()));
        String network = slb.getSpec() == null ? null : slb.getSpec().getExternalNetwork();
        ServiceLoadBalancerStatus previous = slb.getStatus();
        AllocationState allocation = in.allocation();
        String type = in.resolution() instanceof NetworkResolution.Usable u ? u.type()
                : vipOf(allocation) != null ? in.vipPoolMode() : null;

        NodeEligibility eligibility = in.announce().eligibility();
        BackendState backends = Backends.aggregate(in.service(), in.slices(), eligibility::allows);
        List<PlannedEvent> warnings = new ArrayList<>();
        portWarning(backends, in.slices()).ifPresent(warnings::add);

        ArpAction arp = arpAction(ns, name, uidOf(in.service()), network, allocation, type, backends, in);
        List<String> dead = JuneauConstants.MODE_ARP.equals(type) ? in.liveness().deadAmong(backends.advertisingNodes())
                : List.of();
        StatusInput.Problem problem = null;
        if (arp instanceof ArpAction.Conflict c) {
            warnings.add(PlannedEvent.warning(WARNING_ARP_CONFLICT, c.message()));
            problem = new StatusInput.Problem(JuneauConstants.REASON_ARP_ADVERTISEMENT_CONFLICT, c.message());
        }
        long generation = slb.getMetadata() == null || slb.getMetadata().getGeneration() == null ? 0
                : slb.getMetadata().getGeneration();
        List<String> leftOut = backends.leftOut().stream().map(n -> n + ": " + eligibility.whyNot(n)).toList();
        List<String> noAgents = JuneauConstants.MODE_ARP.equals(type) && !in.announce().arpWithoutAgents()
                ? backends.advertisingNodes().stream().filter(n -> !in.liveness().hasAgent(n)).toList() : List.of();
        String vip = vipOf(allocation);
        StatusInput.Announcement announcement = vip == null
                ? new StatusInput.Announcement(false, JuneauConstants.REASON_NOT_ALLOCATED, "no VIP allocated")
                : Announcements.of(type, vip, backends.advertisingNodes(), arp.node(),
                        JuneauConstants.arpAdvertisementName(ns, name), in.existingArp(),
                        SessionLiveness.judged(in.announce(), in.liveness()));
        return new StatusParts(slb, network, new StatusInput(generation, allocation, backends, type, arp.node(), dead,
                problem, leftOut, noAgents, announcement), arp, warnings, currentIngress(in.service()), rfc3339(in.now()));
    }

    /**
     * The status and what follows from it (ingress, events), with {@code denial} (a write of this pass the API
     * server refused, or null) as the status's problem: nothing but the status is decided again.
     */
    static ServicePlan plan(StatusParts parts, WriteDenial denial) {
        ServiceLoadBalancer slb = parts.slb();
        ServiceLoadBalancerStatus previous = slb.getStatus();
        StatusInput in = parts.input();
        if (denial != null) {
            in = new StatusInput(in.generation(), in.allocation(), in.backends(), in.networkType(),
                    in.arpAnnouncingNode(), in.deadNodes(), new StatusInput.Problem(JuneauConstants.REASON_WRITE_DENIED,
                            Messages.writeDenied(denial.what(), denial.message())), in.leftOut(), in.noAgentNodes(),
                    in.announcement());
        }
        ServiceLoadBalancerStatus next = StatusCalculator.next(previous, in, parts.now());

        ServiceLoadBalancer desired = new ServiceLoadBalancer();
        desired.setMetadata(slb.getMetadata());
        desired.setSpec(slb.getSpec());
        desired.setStatus(next);

        List<LoadBalancerIngress> ingress = next.getVip() == null ? List.of()
                : List.of(new LoadBalancerIngressBuilder().withIp(next.getVip()).withIpMode(IP_MODE_VIP).build());
        boolean ingressChanged = !sameIngress(parts.currentIngress(), ingress);
        String prevNode = previous == null ? null : previous.getArpAnnouncingNode();
        return new ServicePlan(desired, !next.equals(previous), parts.arp(), ingress, ingressChanged,
                transitions(parts.network(), previous, next), parts.warnings(), in.networkType(),
                !Objects.equals(prevNode, next.getArpAnnouncingNode()));
    }

    /** docs/phases-and-conditions.md: who answers ARP, and what happens to the advertisement. */
    static ArpAction arpAction(String ns, String name, String uid, String network, AllocationState allocation,
            String type, BackendState backends, PlanInput in) {
        ARPAdvertisement existing = in.existingArp();
        boolean ours = existing == null || belongsTo(existing, ns, name);
        String vip = vipOf(allocation);
        if (allocation instanceof AllocationState.KeptUnusable) {
            // the network cannot be read: no write would be admitted; whoever answers goes on answering
            return existing != null && ours && existing.getSpec() != null
                    ? new ArpAction.Keep(existing.getSpec().getNodeName()) : new ArpAction.None();
        }
        if (vip != null && JuneauConstants.MODE_ARP.equals(type)) {
            if (!ours) {
                return new ArpAction.Conflict("ARPAdvertisement \"" + firstNonNull(nameOf(existing),
                        JuneauConstants.arpAdvertisementName(ns, name))
                        + "\" already exists for " + ownerOf(existing) + ", so no node announces VIP " + vip
                        + "; rename this Service or the other one (the advertisement name is slb-<namespace>-<name>)");
            }
            List<String> candidates = backends.advertisingNodes().stream()
                    .filter(in.nodes()::contains)
                    .filter(n -> !in.liveness().dead(n))
                    // no agent, nobody answers: electing it would be a silent blackhole (docs/phases-and-conditions.md)
                    .filter(n -> in.announce().arpWithoutAgents() || in.liveness().hasAgent(n))
                    .toList();
            boolean stale = existing != null && existing.getSpec() != null
                    && (!vip.equals(existing.getSpec().getAddress())
                            || !Objects.equals(network, existing.getSpec().getExternalNetwork()));
            String current = existing == null || stale || existing.getSpec() == null ? null
                    : existing.getSpec().getNodeName();
            Optional<String> elected = ArpElection.elect(vip, candidates, current);
            if (elected.isEmpty()) {
                return existing == null ? new ArpAction.None() : new ArpAction.Delete(existing);
            }
            String node = elected.get();
            if (existing == null) {
                return new ArpAction.Create(advertisement(ns, name, uid, network, vip, node));
            }
            if (stale) {
                return new ArpAction.Replace(existing, advertisement(ns, name, uid, network, vip, node));
            }
            // an advertisement without the Service's uid (written before the label) gets it in place, on the same node
            return node.equals(current) && !lacksUid(existing, uid) ? new ArpAction.Keep(node)
                    : new ArpAction.Move(existing, node);
        }
        // bgp network, or nothing to announce: a left-over advertisement must not keep a node answering
        return existing != null && ours ? new ArpAction.Delete(existing) : new ArpAction.None();
    }

    /** A new advertisement for the Service, without its uid (a Service read without one). */
    public static ARPAdvertisement advertisement(String ns, String name, String network, String vip, String node) {
        return advertisement(ns, name, null, network, vip, node);
    }

    /**
     * A new advertisement for the Service (labels point back to it, docs/api-reference.md); the uid label only when
     * the uid is known, so the agent's Events on the Service carry it.
     */
    public static ARPAdvertisement advertisement(String ns, String name, String uid, String network, String vip,
            String node) {
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(JuneauConstants.arpAdvertisementName(ns, name))
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, ns)
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, name);
        if (uid != null && !uid.isEmpty()) {
            meta.addToLabels(JuneauConstants.LABEL_SERVICE_UID, uid);
        }
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(meta.addToLabels(JuneauConstants.LABEL_NODE, node).build());
        a.setSpec(new ARPAdvertisementSpec(network, vip, node));
        return a;
    }

    /** Events of the status change (docs/phases-and-conditions.md step 6); none for an unchanged state. */
    /**
     * The {@code IPAllocated} events the status's allocation may have been announced with — with the ARP node it
     * names, and without one (when the endpoints came after the allocation) — the same messages, so an event
     * recorder naming events by content finds the one already recorded; none when the status holds no VIP.
     */
    public static List<PlannedEvent> allocatedEvents(String network, ServiceLoadBalancerStatus status) {
        if (status == null || status.getVip() == null) {
            return List.of();
        }
        List<PlannedEvent> out = new ArrayList<>(allocated(network, status));
        if (status.getArpAnnouncingNode() != null) {
            ServiceLoadBalancerStatus withoutNode = new ServiceLoadBalancerStatus();
            withoutNode.setVip(status.getVip());
            withoutNode.setAddressPool(status.getAddressPool());
            out.addAll(allocated(network, withoutNode));
        }
        return out;
    }

    private static List<PlannedEvent> allocated(String network, ServiceLoadBalancerStatus status) {
        return transitions(network, null, status).stream()
                .filter(e -> JuneauConstants.EVENT_IP_ALLOCATED.equals(e.reason())).toList();
    }

    static List<PlannedEvent> transitions(String network, ServiceLoadBalancerStatus prev,
            ServiceLoadBalancerStatus next) {
        List<PlannedEvent> out = new ArrayList<>();
        String prevVip = prev == null ? null : prev.getVip();
        if (prevVip == null && next.getVip() != null) {
            // the first node to answer ARP is part of this news, not a change of node: one event, not two
            out.add(PlannedEvent.normal(JuneauConstants.EVENT_IP_ALLOCATED, "allocated VIP " + next.getVip()
                    + " from AddressPool " + next.getAddressPool() + " of ExternalNetwork \"" + network + "\""
                    + (next.getArpAnnouncingNode() == null ? ""
                            : "; node " + next.getArpAnnouncingNode() + " is elected to answer ARP for it")));
        }
        Condition allocated = condition(next, JuneauConstants.CONDITION_ALLOCATED);
        Condition before = condition(prev, JuneauConstants.CONDITION_ALLOCATED);
        if (allocated != null && "False".equals(allocated.getStatus()) && (before == null
                || !Objects.equals(before.getStatus(), allocated.getStatus())
                || !Objects.equals(before.getReason(), allocated.getReason())
                || !Objects.equals(before.getMessage(), allocated.getMessage()))) {
            out.add(PlannedEvent.warning(JuneauConstants.EVENT_ALLOCATION_FAILED,
                    allocated.getReason() + ": " + allocated.getMessage()));
        }
        String prevNode = prev == null ? null : prev.getArpAnnouncingNode();
        if (prevVip != null && !Objects.equals(prevNode, next.getArpAnnouncingNode())) {
            out.add(PlannedEvent.normal(JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED,
                    "node elected to answer ARP for VIP " + (next.getVip() != null ? next.getVip() : prevVip) + " changed: "
                            + (prevNode == null ? "<none>" : prevNode) + " -> "
                            + (next.getArpAnnouncingNode() == null ? "<none>" : next.getArpAnnouncingNode())));
        }
        return out;
    }

    private static Optional<PlannedEvent> portWarning(BackendState backends, List<EndpointSlice> slices) {
        // without endpoint ports there is nothing to resolve against yet (no pods): not a mistake to warn about
        boolean slicesHavePorts = slices.stream().anyMatch(s -> s.getPorts() != null && !s.getPorts().isEmpty());
        if (backends.unresolvedPorts().isEmpty() || !slicesHavePorts) {
            return Optional.empty();
        }
        return Optional.of(PlannedEvent.warning(WARNING_PORTS, "named targetPort of Service port(s) "
                + String.join(", ", backends.unresolvedPorts())
                + " is not found in the ports of the Service's EndpointSlices, so "
                + (backends.unresolvedPorts().size() == 1 ? "it is" : "they are")
                + " left out of status.ports; name the container port like the targetPort, or use a number"));
    }

    // ---- ingress ----

    public static List<LoadBalancerIngress> currentIngress(Service svc) {
        if (svc == null || svc.getStatus() == null || svc.getStatus().getLoadBalancer() == null
                || svc.getStatus().getLoadBalancer().getIngress() == null) {
            return List.of();
        }
        return svc.getStatus().getLoadBalancer().getIngress();
    }

    /** The IPs of {@code status.loadBalancer.ingress} of the Service (none when it has none or is null). */
    public static List<String> ingressIps(Service svc) {
        return currentIngress(svc).stream().filter(Objects::nonNull).map(LoadBalancerIngress::getIp)
                .filter(Objects::nonNull).toList();
    }

    /**
     * Same ingress as far as the server keeps it: an API server older than 1.30 drops {@code ipMode}, so an entry
     * without it matches one that sets it (otherwise every reconcile would write it again).
     */
    static boolean sameIngress(List<LoadBalancerIngress> current, List<LoadBalancerIngress> desired) {
        if (current.size() != desired.size()) {
            return false;
        }
        for (int i = 0; i < current.size(); i++) {
            LoadBalancerIngress x = current.get(i);
            LoadBalancerIngress y = desired.get(i);
            if (x == null || !Objects.equals(x.getIp(), y.getIp()) || !Objects.equals(x.getHostname(), y.getHostname())
                    || (x.getIpMode() != null && !Objects.equals(x.getIpMode(), y.getIpMode()))) {
                return false;
            }
        }
        return true;
    }

    // ---- reading helpers ----

    /** True when the advertisement of that name was made for this Service (its labels point back to it). */
    public static boolean belongsTo(ARPAdvertisement arp, String ns, String name) {
        Map<String, String> l = arp.getMetadata() == null ? null : arp.getMetadata().getLabels();
        return l != null && ns.equals(l.get(JuneauConstants.LABEL_SERVICE_NAMESPACE))
                && name.equals(l.get(JuneauConstants.LABEL_SERVICE_NAME));
    }

    static String ownerOf(ARPAdvertisement arp) {
        Map<String, String> l = arp.getMetadata() == null ? null : arp.getMetadata().getLabels();
        if (l == null || l.get(JuneauConstants.LABEL_SERVICE_NAME) == null) {
            return "no Service (it has no " + JuneauConstants.LABEL_SERVICE_NAME + " label)";
        }
        return "Service " + l.get(JuneauConstants.LABEL_SERVICE_NAMESPACE) + "/"
                + l.get(JuneauConstants.LABEL_SERVICE_NAME);
    }

    public static boolean hasFinalizer(ServiceLoadBalancer slb) {
        return slb.getMetadata() != null && slb.getMetadata().getFinalizers() != null
                && slb.getMetadata().getFinalizers().contains(JuneauConstants.FINALIZER);
    }

    static boolean ownedBy(ServiceLoadBalancer slb, Service svc) {
        String uid = controllerUid(slb);
        return uid == null || uid.equals(svc.getMetadata().getUid());
    }

    /** The uid of the controlling Service, or null when no controller reference names one (empty counts as none). */
    public static String controllerUid(ServiceLoadBalancer slb) {
        if (slb.getMetadata() == null || slb.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        return slb.getMetadata().getOwnerReferences().stream()
                .filter(r -> r != null && Boolean.TRUE.equals(r.getController()) && "Service".equals(r.getKind())
                        && trimmed(r.getUid()) != null)
                .map(OwnerReference::getUid).findFirst().orElse(null);
    }

    /** True when the Service's uid is known and the advertisement's uid label does not say it. */
    static boolean lacksUid(ARPAdvertisement a, String uid) {
        if (uid == null || uid.isEmpty()) {
            return false;
        }
        return a.getMetadata() == null || a.getMetadata().getLabels() == null
                || !uid.equals(a.getMetadata().getLabels().get(JuneauConstants.LABEL_SERVICE_UID));
    }

    /** The object's metadata.uid, or null (no object, no metadata, no uid). */
    public static String uidOf(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o == null || o.getMetadata() == null ? null : o.getMetadata().getUid();
    }

    private static String nameOf(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o == null || o.getMetadata() == null ? null : o.getMetadata().getName();
    }

    private static String namespaceOf(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o == null || o.getMetadata() == null ? null : o.getMetadata().getNamespace();
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b != null ? b : "";
    }

    static Condition condition(ServiceLoadBalancerStatus s, String type) {
        if (s == null || s.getConditions() == null) {
            return null;
        }
        return s.getConditions().stream().filter(c -> c != null && type.equals(c.getType())).findFirst().orElse(null);
    }

    private static String vipOf(AllocationState a) {
        if (a instanceof AllocationState.Allocated ok) {
            return ok.vip();
        }
        return a instanceof AllocationState.KeptUnusable k ? k.vip() : null;
    }

    private static String annotation(Service svc, String key) {
        Map<String, String> a = svc.getMetadata() == null ? null : svc.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    static String trimmed(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.isEmpty() ? null : t;
    }

    private static OptionalLong parse(String ip) {
        try {
            return OptionalLong.of(Ipv4.parse(ip));
        } catch (InvalidAddressException e) {
            return OptionalLong.empty();
        }
    }

    /** Condition times: RFC 3339, whole seconds, as metav1.Time serialises. */
    static String rfc3339(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
