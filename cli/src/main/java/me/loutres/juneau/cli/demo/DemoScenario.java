package me.loutres.juneau.cli.demo;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.election.ArpElection;

/**
 * The demo's story, step by step, against a running {@link LocalStack}. Every step checks what it shows and says
 * plainly when something did not behave; the report carries the observations for tests.
 */
public final class DemoScenario {
    static final String NS = "default";
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The demo's manifests the webhook must refuse, under {@link DemoManifests#DIRECTORY}. */
    static final String REFUSED = "refused/";

    /** A step did not behave as expected; the message says what was seen instead. */
    static final class StepFailed extends Exception {
        private static final long serialVersionUID = 1L;

        StepFailed(String message) {
            super(message);
        }
    }

    @FunctionalInterface
    interface Body {
        void run() throws StepFailed, IOException, InterruptedException;
    }

    private final LocalStack stack;
    private final KubernetesClient kube;
    private final ApiCalls api;
    private final PrintStream out;
    private final boolean onTheWire;
    private final DemoReport report = new DemoReport();
    private int stepNumber;
    private static final int STEPS = 8;

    /** The whole demo: the API steps, then the same VIPs on a namespace LAN (root only; else it says why not). */
    public DemoScenario(LocalStack stack, PrintStream out) {
        this(stack, out, true);
    }

    /**
     * @param onTheWire false leaves out the namespace-LAN steps (DemoIT checks the API steps; the wire is
     *                  ArpFailoverIT's and BgpIT's, run once there)
     */
    public DemoScenario(LocalStack stack, PrintStream out, boolean onTheWire) {
        this.onTheWire = onTheWire;
        this.stack = stack;
        this.kube = stack.api().adminClient();
        this.api = new ApiCalls(stack.api().url(), stack.api().httpClient());
        this.out = out;
    }

    /** Plays every step in order; stops at the first one that fails, since later steps build on it. */
    public DemoReport play() {
        List<Map.Entry<String, Body>> steps = List.of(
                Map.entry("Address pools and external networks", this::poolsAndNetworks),
                Map.entry("Pools the webhook refuses", this::badPools),
                Map.entry("Services the webhook refuses (what kubectl apply prints)", this::badServices),
                Map.entry("A good Service gets a VIP, then backends, then an ARP node", this::goodServices),
                Map.entry("Hand edits of controller-owned objects are refused", this::handEdits),
                Map.entry("The announcing node loses its backend: ARP failover", this::failover),
                Map.entry("The ARP pool runs out: why is my Service pending?", this::exhaustion),
                Map.entry("A Service is deleted: its address goes to the waiting Service", this::release));
        for (Map.Entry<String, Body> step : steps) {
            stepNumber++;
            out.printf("%n[%d/%d] %s%n", stepNumber, STEPS, step.getKey());
            try {
                step.getValue().run();
                report.steps.add(new DemoReport.Step(step.getKey(), null));
                out.println("  ✓ as expected");
            } catch (StepFailed e) {
                return failed(step.getKey(), e.getMessage());
            } catch (IOException | RuntimeException e) {
                return failed(step.getKey(), e.getClass().getSimpleName() + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return failed(step.getKey(), "interrupted");
            }
        }
        if (onTheWire) {
            // the same failover on a namespace LAN, as a router sees it (root only; skipped with the reason otherwise)
            ArpWireDemo wire = new ArpWireDemo(out);
            String title = "The VIP on the wire: the client's ARP table follows the move";
            switch (wire.play()) {
                case MOVED -> report.steps.add(new DemoReport.Step(title, null));
                case FAILED -> report.steps.add(new DemoReport.Step(title, wire.failure()));
                case SKIPPED -> {
                    // nothing to count: the demo says why it skipped
                }
            }
            // the same for a BGP VIP, as a router running BIRD sees it (root and bird2 only; else the reason)
            BgpWireDemo bgp = new BgpWireDemo(out);
            String bgpTitle = "A BGP VIP on the wire: the router's next hops follow the backends";
            switch (bgp.play()) {
                case MOVED -> report.steps.add(new DemoReport.Step(bgpTitle, null));
                case FAILED -> report.steps.add(new DemoReport.Step(bgpTitle, bgp.failure()));
                case SKIPPED -> {
                    // nothing to count: the demo says why it skipped
                }
            }
        }
        return report;
    }

    private DemoReport failed(String title, String why) {
        report.steps.add(new DemoReport.Step(title, why));
        out.println("  ✗ step " + stepNumber + " did not behave as expected: " + why);
        return report;
    }

    // ---- step 1 -------------------------------------------------------------------------------------------

    private void poolsAndNetworks() throws StepFailed, IOException {
        out.println("  nodes (InternalIP): " + String.join(", ", LocalStack.NODE_NAMES.stream()
                .map(n -> n + " " + kube.nodes().withName(n).get().getStatus().getAddresses().get(0).getAddress())
                .toList()));
        out.println("  (every object below is a file of " + DemoManifests.DIRECTORY + ")");
        mustCreate(AddressPool.class, "10-lan-pool.yaml");
        mustCreate(AddressPool.class, "11-edge-pool.yaml");
        mustCreate(ExternalNetwork.class, "20-lan.yaml");
        mustCreate(ExternalNetwork.class, "21-edge.yaml");
        TextTable t = new TextTable("NAME", "MODE", "ADDRESSES", "NETWORK");
        List<ExternalNetwork> networks = kube.resources(ExternalNetwork.class).list().getItems();
        kube.resources(AddressPool.class).list().getItems().stream()
                .sorted(java.util.Comparator.comparing(p -> p.getMetadata().getName()))
                .forEach(p -> t.row(p.getMetadata().getName(), p.getSpec().getAdvertiseMode(),
                        String.join(", ", p.getSpec().getAddresses()),
                        networks.stream().filter(n -> n.getSpec().getAddressPools().contains(p.getMetadata().getName()))
                                .map(n -> n.getMetadata().getName()).findFirst().orElse("")));
        out.print(t.render("  "));
    }

    // ---- step 2 -------------------------------------------------------------------------------------------

    private void badPools() throws StepFailed, IOException {
        mustBeRejected(AddressPool.class, "lan-overlap.yaml", "lan-pool");
        mustBeRejected(AddressPool.class, "node-range.yaml", "192.168.10.11");
        mustBeRejected(AddressPool.class, "edge-typo.yaml", "198.51.100.10-198.51.100.20");
    }

    // ---- step 3 -------------------------------------------------------------------------------------------

    private void badServices() throws StepFailed, IOException {
        mustBeRejected(Service.class, "no-network.yaml", JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
        mustBeRejected(Service.class, "typo-network.yaml", "lann");
        mustBeRejected(Service.class, "outside-ip.yaml", "192.168.99.1");
        mustBeRejected(Service.class, "sctp-port.yaml", "SCTP");
    }

    // ---- step 4 -------------------------------------------------------------------------------------------

    private void goodServices() throws StepFailed, IOException, InterruptedException {
        ApiCalls.Reply reply = mustCreate(Service.class, "30-web.yaml");
        report.warnings.addAll(reply.warnings());
        String policy = kube.services().inNamespace(NS).withName("web").get().getSpec().getExternalTrafficPolicy();
        check("Local".equals(policy), "the webhook should have set externalTrafficPolicy Local, found " + policy);
        ServiceLoadBalancerStatus allocated = awaitSlb("web", s -> JuneauConstants.PHASE_ALLOCATED.equals(s.getPhase()),
                "phase Allocated (a VIP, no backends yet)");
        check("192.168.10.200".equals(allocated.getVip()), "web should get the first lan address, got "
                + allocated.getVip());
        out.println("  no backends yet:");
        printSlbs();

        mustCreate(EndpointSlice.class, "31-web-endpoints.yaml");
        out.println("  endpoints ready on node-a and node-b:");
        String expected = ArpElection.elect(allocated.getVip(), List.of("node-a", "node-b"), null).orElseThrow();
        ServiceLoadBalancerStatus ready = awaitSlb("web", s -> JuneauConstants.PHASE_READY.equals(s.getPhase())
                && expected.equals(s.getArpAnnouncingNode()), "phase Ready, ARP node " + expected);
        report.vips.put(NS + "/web", ready.getVip());
        ARPAdvertisement adv = await("ARPAdvertisement slb-default-web on " + expected, () -> arp("web"),
                a -> a != null && expected.equals(a.getSpec().getNodeName()));
        report.arpNodeBefore = adv.getSpec().getNodeName();
        String ingress = await("Service web status.loadBalancer.ingress", () -> ingressIp("web"),
                ip -> ready.getVip().equals(ip));
        check(ready.getVip().equals(ingress), "the Service should show its VIP");

        mustCreate(Service.class, "32-api.yaml");
        mustCreate(EndpointSlice.class, "33-api-endpoints.yaml");
        ServiceLoadBalancerStatus bgp = awaitSlb("api", s -> JuneauConstants.PHASE_READY.equals(s.getPhase())
                && List.of("node-b", "node-c").equals(s.getAdvertisingNodes()), "phase Ready on node-b, node-c");
        check("203.0.113.1".equals(bgp.getVip()), "api should get 203.0.113.1 (the network address .0 is skipped), got "
                + bgp.getVip());
        check(arp("api") == null, "a bgp network must have no ARPAdvertisement");
        report.vips.put(NS + "/api", bgp.getVip());
        printSlbs();
        printArp();
        printServices();
    }

    // ---- step 5 -------------------------------------------------------------------------------------------

    private void handEdits() throws StepFailed, IOException {
        ServiceLoadBalancer web = slb("web");
        ApiCalls.Reply r = api.mergePatch(web, "status", "{\"status\":{\"vip\":\"192.168.10.202\"}}");
        out.println("  $ kubectl patch slb web --subresource=status --type=merge -p '{\"status\":{\"vip\":\"192.168.10.202\"}}'");
        check(r.code() == 403, "a person's status edit should be refused with 403, got " + r.code());
        out.println("  " + kubectlError(r));
        ApiCalls.Reply d = api.delete(arp("web"));
        out.println("  $ kubectl delete arpadvertisement slb-default-web");
        check(d.code() == 403, "a person's delete of an ARPAdvertisement should be refused, got " + d.code());
        out.println("  " + kubectlError(d));
        check("192.168.10.200".equals(slb("web").getStatus().getVip()), "the VIP must not have changed");
    }

    // ---- step 6 -------------------------------------------------------------------------------------------

    private void failover() throws StepFailed, InterruptedException {
        ARPAdvertisement before = arp("web");
        String from = before.getSpec().getNodeName();
        String to = from.equals("node-a") ? "node-b" : "node-a";
        out.println("  the endpoint on " + from + " turns not-ready (pod failing its readiness probe)");
        EndpointSlice slice = kube.discovery().v1().endpointSlices().inNamespace(NS).withName("web-x7k2p").get();
        slice.getEndpoints().stream().filter(e -> from.equals(e.getNodeName()))
                .forEach(e -> e.getConditions().setReady(false));
        long start = System.nanoTime();
        kube.resource(slice).update();
        ARPAdvertisement after = null;
        long deadline = start + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            ARPAdvertisement a = arp("web");
            if (a != null && to.equals(a.getSpec().getNodeName())) {
                after = a;
                break;
            }
            Thread.sleep(2);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        check(after != null, "the ARPAdvertisement should move from " + from + " to " + to + " within " + WAIT);
        report.failoverMillis = millis;
        report.arpNodeAfter = after.getSpec().getNodeName();
        report.arpMovedInPlace = Objects.equals(before.getMetadata().getUid(), after.getMetadata().getUid());
        check(report.arpMovedInPlace, "the ARPAdvertisement should be updated in place (same uid), not re-created");
        out.printf("  ARPAdvertisement slb-default-web moved %s -> %s in %d ms (measured from the EndpointSlice "
                + "update to the new nodeName; updated in place, same uid)%n", from, to, millis);
        awaitSlb("web", s -> to.equals(s.getArpAnnouncingNode()) && JuneauConstants.PHASE_READY.equals(s.getPhase()),
                "status.arpAnnouncingNode " + to);
        Event moved = await("an AnnouncingNodeChanged event " + from + " -> " + to + " on Service web",
                () -> event("web", JuneauConstants.EVENT_ANNOUNCING_NODE_CHANGED, from + " -> " + to).orElse(null),
                Objects::nonNull);
        out.println("  event on Service web: " + moved.getType() + " " + moved.getReason() + ": " + moved.getMessage());
        printArp();
    }

    // ---- step 7 -------------------------------------------------------------------------------------------

    private void exhaustion() throws StepFailed, IOException, InterruptedException {
        // one after the other: the API server serves requests concurrently and the controller reconciles Services
        // in parallel, so Services created in the same instant may be allocated in either order
        for (String name : List.of("web-2", "web-3")) {
            mustCreate(Service.class, (name.equals("web-2") ? "40-" : "41-") + name + ".yaml");
            awaitSlb(name, s -> s.getVip() != null, "a VIP");
        }
        mustCreate(Service.class, "42-web-4.yaml");
        ServiceLoadBalancerStatus pending = awaitSlb("web-4", s -> JuneauConstants.PHASE_PENDING.equals(s.getPhase())
                && condition(s, JuneauConstants.CONDITION_ALLOCATED).isPresent(), "phase Pending");
        Condition allocated = condition(pending, JuneauConstants.CONDITION_ALLOCATED).orElseThrow();
        report.pendingReason = allocated.getReason();
        report.pendingMessage = allocated.getMessage();
        check(JuneauConstants.REASON_POOL_EXHAUSTED.equals(allocated.getReason()),
                "web-4 should be Pending with reason PoolExhausted, got " + allocated.getReason());
        printSlbs();
        out.println("  $ kubectl get slb web-4 -o jsonpath='{.status.conditions[?(@.type==\"Allocated\")].message}'");
        out.println("  " + allocated.getMessage());
        Event failed = await("an AllocationFailed event on Service web-4",
                () -> event("web-4", JuneauConstants.EVENT_ALLOCATION_FAILED, "").orElse(null), Objects::nonNull);
        out.println("  event on Service web-4: " + failed.getType() + " " + failed.getReason() + ": "
                + failed.getMessage());
        AddressPool lan = await("AddressPool lan-pool status", () -> kube.resources(AddressPool.class)
                .withName("lan-pool").get(), p -> p.getStatus() != null && Long.valueOf(3).equals(p.getStatus().getAllocated()));
        out.printf("  AddressPool lan-pool: total %d, allocated %d, free %d%n", lan.getStatus().getTotal(),
                lan.getStatus().getAllocated(), lan.getStatus().getFree());
    }

    // ---- step 8 -------------------------------------------------------------------------------------------

    private void release() throws StepFailed, IOException, InterruptedException {
        String freed = slb("web-2").getStatus().getVip();
        ApiCalls.Reply r = api.delete(kube.services().inNamespace(NS).withName("web-2").get());
        check(r.ok(), "deleting Service web-2 failed: " + r.code() + " " + r.message());
        out.println("  $ kubectl delete service web-2   (frees " + freed + ")");
        await("ServiceLoadBalancer web-2 to be gone (finalizer released the address)", () -> slb("web-2"),
                Objects::isNull);
        ServiceLoadBalancerStatus got = awaitSlb("web-4", s -> freed.equals(s.getVip()), "the freed address " + freed);
        report.recoveredVip = got.getVip();
        report.vips.put(NS + "/web-4", got.getVip());
        printSlbs();
        printServices();
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private <T extends HasMetadata> ApiCalls.Reply mustCreate(Class<T> type, String file) throws StepFailed, IOException {
        T o = DemoManifests.load(file, type);
        out.println("  $ kubectl create -f " + DemoManifests.path(file));
        ApiCalls.Reply r = api.create(o);
        r.warnings().forEach(w -> out.println("  Warning: " + w));
        check(r.ok(), "creating " + file + " should succeed, got " + r.code() + ": " + r.message());
        out.println("  " + kindLower(o) + "/" + o.getMetadata().getName() + " created");
        return r;
    }

    private <T extends HasMetadata> void mustBeRejected(Class<T> type, String file, String mentions)
            throws StepFailed, IOException {
        T o = DemoManifests.load(REFUSED + file, type);
        String shown = DemoManifests.path(REFUSED + file);
        out.println("  $ kubectl create -f " + shown);
        ApiCalls.Reply r = api.create(o);
        r.warnings().forEach(w -> out.println("  Warning: " + w));
        String line = r.kubectlError("creating", shown);
        out.println("  " + line);
        check(r.code() == 403 && "Forbidden".equals(r.reason()),
                file + " should be refused with 403 Forbidden, got " + r.code() + " " + r.reason());
        check(r.message().contains("denied the request") && r.message().contains(mentions),
                "the rejection of " + file + " should mention " + mentions + ": " + r.message());
        HasMetadata stored = o instanceof Service
                ? kube.services().inNamespace(NS).withName(o.getMetadata().getName()).get()
                : kube.resources(AddressPool.class).withName(o.getMetadata().getName()).get();
        check(stored == null, file + " was rejected but stored anyway");
        report.rejections.put(file, line);
    }

    /** kubectl patch/delete print the Status message without the "error when ..." part of create. */
    private static String kubectlError(ApiCalls.Reply r) {
        return "Error from server (" + r.reason() + "): " + r.message();
    }

    private static String kindLower(HasMetadata o) {
        String k = o.getKind().toLowerCase(java.util.Locale.ROOT);
        return o.getApiVersion().contains("/") ? k + "." + o.getApiVersion().substring(0, o.getApiVersion().indexOf('/'))
                : k;
    }

    private static void check(boolean ok, String failure) throws StepFailed {
        if (!ok) {
            throw new StepFailed(failure);
        }
    }

    private <T> T await(String what, Supplier<T> probe, Predicate<T> done) throws StepFailed {
        long deadline = System.nanoTime() + WAIT.toNanos();
        T last = null;
        while (System.nanoTime() < deadline) {
            last = probe.get();
            if (done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StepFailed("interrupted while waiting for " + what);
            }
        }
        throw new StepFailed("waited " + WAIT.toSeconds() + " s for " + what + "; last seen: " + describe(last));
    }

    private ServiceLoadBalancerStatus awaitSlb(String name, Predicate<ServiceLoadBalancerStatus> done, String what)
            throws StepFailed {
        ServiceLoadBalancer s = await("ServiceLoadBalancer " + name + ": " + what, () -> slb(name),
                o -> o != null && o.getStatus() != null && done.test(o.getStatus()));
        return s.getStatus();
    }

    private static String describe(Object o) {
        if (o instanceof ServiceLoadBalancer s) {
            ServiceLoadBalancerStatus st = s.getStatus();
            return st == null ? "no status" : "phase " + st.getPhase() + ", vip " + st.getVip() + ", ARP node "
                    + st.getArpAnnouncingNode() + ", nodes " + st.getAdvertisingNodes();
        }
        if (o instanceof ARPAdvertisement a) {
            return "ARPAdvertisement on " + a.getSpec().getNodeName();
        }
        return String.valueOf(o);
    }

    private ServiceLoadBalancer slb(String name) {
        return kube.resources(ServiceLoadBalancer.class).inNamespace(NS).withName(name).get();
    }

    private ARPAdvertisement arp(String service) {
        return kube.resources(ARPAdvertisement.class).withName(JuneauConstants.arpAdvertisementName(NS, service)).get();
    }

    private String ingressIp(String service) {
        Service s = kube.services().inNamespace(NS).withName(service).get();
        if (s == null || s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null
                || s.getStatus().getLoadBalancer().getIngress().isEmpty()) {
            return null;
        }
        return s.getStatus().getLoadBalancer().getIngress().get(0).getIp();
    }

    private Optional<Event> event(String service, String reason, String messageContains) {
        return kube.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject() != null && service.equals(e.getInvolvedObject().getName())
                        && reason.equals(e.getReason()) && e.getMessage() != null
                        && e.getMessage().contains(messageContains))
                .findFirst();
    }

    private static Optional<Condition> condition(ServiceLoadBalancerStatus s, String type) {
        return s.getConditions() == null ? Optional.empty()
                : s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private void printSlbs() {
        TextTable t = new TextTable("NAME", "SERVICE", "EXTERNALNETWORK", "VIP", "PHASE", "NODES", "ARPNODE");
        kube.resources(ServiceLoadBalancer.class).inNamespace(NS).list().getItems().stream()
                .sorted(java.util.Comparator.comparing(s -> s.getMetadata().getName()))
                .forEach(s -> {
                    ServiceLoadBalancerStatus st = s.getStatus() == null ? new ServiceLoadBalancerStatus() : s.getStatus();
                    t.row(s.getMetadata().getName(), s.getSpec().getServiceRef().getName(),
                            s.getSpec().getExternalNetwork(), st.getVip(), st.getPhase(),
                            st.getBackendSummary() == null ? 0 : st.getBackendSummary().getLocalReadyNodes(),
                            st.getArpAnnouncingNode());
                });
        out.println("  $ kubectl get slb");
        out.print(t.render("  "));
    }

    private void printArp() {
        TextTable t = new TextTable("NAME", "ADDRESS", "NODE", "EXTERNALNETWORK");
        kube.resources(ARPAdvertisement.class).list().getItems().forEach(a -> t.row(a.getMetadata().getName(),
                a.getSpec().getAddress(), a.getSpec().getNodeName(), a.getSpec().getExternalNetwork()));
        out.println("  $ kubectl get arpadvertisements");
        out.print(t.render("  "));
    }

    private void printServices() {
        TextTable t = new TextTable("NAME", "TYPE", "EXTERNAL-IP", "PORT(S)");
        kube.services().inNamespace(NS).list().getItems().stream()
                .sorted(java.util.Comparator.comparing(s -> s.getMetadata().getName()))
                .forEach(s -> t.row(s.getMetadata().getName(), s.getSpec().getType(),
                        Optional.ofNullable(ingressIp(s.getMetadata().getName())).orElse("<pending>"),
                        s.getSpec().getPorts().get(0).getPort() + "/" + s.getSpec().getPorts().get(0).getProtocol()));
        out.println("  $ kubectl get services");
        out.print(t.render("  "));
    }
}
