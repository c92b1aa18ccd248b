package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import me.loutres.juneau.apiserver.Identities;
import me.loutres.juneau.cli.demo.LocalStack;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.view.SnapshotClusterView;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * docs/ci.md, "The forecast is the controller's": for a generated cluster (arp and bgp ExternalNetworks, AddressPools
 * with tiny, overlapping and exhausted ranges, Nodes with InternalIPs and podCIDRs inside them, Services with and
 * without requested IPs, on missing networks or with another class, networks that let only some namespaces or Services
 * in, EndpointSlices), {@code juneau validate}'s
 * verdicts and forecasts are what the cluster does: the same manifests, applied one by one in validate's order to
 * the local API server with the real webhook and the real controller ({@code juneau up}'s stack), are admitted or
 * refused alike, and every managed Service ends with the forecast's phase, Allocated reason and VIP.
 *
 * <p>The order: validate plays the objects in dependency order and forecasts each Service as if the Services before
 * it were allocated already; so the test applies each Service only once the controller has settled the one before.
 * The one phase validate cannot see: it forecasts {@code Allocated} for a held VIP, which the controller turns into
 * {@code Ready} once a node with a ready endpoint may announce it (here: a ready endpoint on a Node, since the networks
 * have no nodeSelector and the stack elects nodes without agents, as {@code juneau up} does).
 */
class ValidateAgreesMockTest {
    private static final String CLASS_OTHER = "example.com/other-lb";
    private static final Duration SETTLE = Duration.ofSeconds(15);

    private static LocalStack stack;
    private static KubernetesClient admin;
    private static final AtomicInteger TRIES = new AtomicInteger();

    @BeforeContainer
    static void start() throws Exception {
        stack = LocalStack.start(0, 0, false);
        if (!stack.awaitReady(Duration.ofSeconds(60))) {
            throw new IllegalStateException("the local stack did not get ready in 60 s");
        }
        admin = stack.api().client(Identities.ADMIN_TOKEN);
    }

    @AfterContainer
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    // ---- the generated cluster: plain numbers, so that jqwik shrinks it to the smallest disagreement ----

    /** An entry: offset in the try's /27 and size 1, 2, 4 or 8 (a CIDR for bgp, a start-end range for arp). */
    record Entry(int offset, int sizeLog) {
    }

    record Pool(boolean arp, List<Entry> entries) {
    }

    /**
     * modeFlip 0: the other mode than its first pool's; pools: indexes modulo the pools, 9 is a missing pool; access:
     * who may use it ({@link #ACCESS}: 0 and 6-9 every Service, then the try's namespace by name, another namespace's
     * name, the try's namespace label, another label, Services labelled exposure=internet).
     */
    record Network(int modeFlip, List<Integer> pools, int access) {
    }

    /** spec.serviceAllocation by {@link Network#access} (docs/install.md, "Sharing a cluster between teams"). */
    static final List<String> ACCESS = List.of("", "{namespaces: [NS]}", "{namespaces: [someone-else]}",
            "{namespaceSelectors: [{matchLabels: {tenant: gold}}]}",
            "{namespaceSelectors: [{matchLabels: {tenant: silver}}]}",
            "{serviceSelectors: [{matchLabels: {exposure: internet}}]}");

    /** internalIp: offset in the try's /27; podCidr: the /29 at that offset's /29 is the Node's podCIDR. */
    record NodeGen(int internalIp, boolean podCidr) {
    }

    /**
     * network: index modulo the networks, 9 is a network that does not exist; requested: -1 none, 0-31 an offset in
     * the try's /27, 32-63 the n-th address of the network's pools (so that requests hit pools, Node InternalIPs and
     * each other often); endpointNode: the node index (modulo the Nodes) of its one ready endpoint, or -1.
     */
    record Svc(int network, int requested, boolean ours, int endpointNode, boolean exposed) {
    }

    record Cluster(List<NodeGen> nodes, List<Pool> pools, List<Network> networks, List<Svc> services) {
    }

    @Provide
    Arbitrary<Cluster> clusters() {
        Arbitrary<Entry> entry = Combinators.combine(Arbitraries.integers().between(0, 31),
                Arbitraries.integers().between(0, 3)).as(Entry::new);
        Arbitrary<Pool> pool = Combinators.combine(Arbitraries.of(true, false), entry.list().ofMinSize(1).ofMaxSize(2))
                .as(Pool::new);
        Arbitrary<NodeGen> node = Combinators.combine(Arbitraries.integers().between(0, 31),
                Arbitraries.integers().between(0, 4).map(i -> i == 0)).as(NodeGen::new);
        Arbitrary<Network> network = Combinators.combine(Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, 9).list().ofMinSize(1).ofMaxSize(2),
                Arbitraries.integers().between(0, 9)).as(Network::new);
        Arbitrary<Svc> service = Combinators.combine(Arbitraries.integers().between(0, 9),
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, Arbitraries.just(-1)),
                        net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0, 31)),
                        net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(32, 63))),
                Arbitraries.integers().between(0, 5).map(i -> i != 0),
                Arbitraries.integers().between(-1, 2), Arbitraries.of(true, false)).as(Svc::new);
        return Combinators.combine(node.list().ofMaxSize(2), pool.list().ofMinSize(1).ofMaxSize(3),
                network.list().ofMinSize(1).ofMaxSize(2), service.list().ofMinSize(1).ofMaxSize(6))
                .as(Cluster::new);
    }

    @Property(tries = 40, shrinking = ShrinkingMode.BOUNDED)
    void validateForecastsWhatTheControllerDoes(@ForAll("clusters") Cluster cluster) throws Exception {
        int n = TRIES.incrementAndGet();
        Rendered r = render(cluster, n);
        try {
            List<Outcome> outcomes = validate(r.yaml());
            List<Outcome> refusedAlike = new ArrayList<>();
            for (Outcome o : outcomes) {
                String refused = apply(o);
                boolean admitted = refused == null;
                if (!admitted && inUseAlike(o, refused)) {
                    refusedAlike.add(o);
                    continue; // one request, two documented timings: see inUseAlike
                }
                assertThat(admitted).as("the cluster %s %s (%s), validate %s (%s), for\n%s", admitted ? "admits" : "refuses",
                        o.object().reference(), refused, o.accepted() ? "admits it" : "refuses it", o.message(), r.yaml())
                        .isEqualTo(o.accepted());
                if (admitted) {
                    seenByTheWebhook(o, r);
                }
            }
            Map<String, String> forecast = new LinkedHashMap<>();
            for (Outcome o : outcomes) {
                if ("Service".equals(o.object().kind()) && o.accepted() && !refusedAlike.contains(o)) {
                    forecast.put(o.object().name(), o.forecast() == null ? "unmanaged" : expected(o.forecast(),
                            r.readyEndpoint().get(o.object().name())));
                }
            }
            Map<String, String> live = new LinkedHashMap<>();
            long deadline = System.nanoTime() + SETTLE.toNanos();
            do {
                live.clear();
                for (String name : forecast.keySet()) {
                    live.put(name, actual(r.namespace(), name));
                }
                if (live.equals(forecast)) {
                    break;
                }
                Thread.sleep(50);
            } while (System.nanoTime() < deadline);
            // what the tries covered, printed when the property fails (junit-platform.properties)
            for (Outcome o : outcomes) {
                Statistics.label("verdicts").collect(o.object().kind() + (refusedAlike.contains(o) ? " in use alike"
                        : o.accepted() ? " admitted" : " refused"));
            }
            forecast.values().forEach(f -> Statistics.label("services").collect(f.replaceAll(" \\d.*", " <vip>")));
            outcomes.stream().filter(o -> "Service".equals(o.object().kind())).forEach(o -> Statistics.label("tenancy")
                    .collect(o.message() != null && o.message().contains(" may not use ExternalNetwork ")
                            ? "refused: may not use" : "not refused for who it is"));
            assertThat(live).as("phase/reason/VIP per Service, the controller (actual) and validate (expected), for\n%s",
                    r.yaml()).isEqualTo(forecast);
        } finally {
            cleanUp(r);
        }
    }

    /**
     * docs/admission.md: two Services asking for one address in one {@code kubectl apply} are both admitted and the
     * second waits, Pending (RequestedIPInUse), which validate forecasts; applied after the controller has given the
     * address to the first (as this test applies them), the second is refused naming the first's
     * ServiceLoadBalancer. Both say the same: the address is that Service's.
     */
    static boolean inUseAlike(Outcome o, String refused) {
        Outcome.VipForecast f = o.forecast();
        if (!o.accepted() || f == null || !JuneauConstants.REASON_REQUESTED_IP_IN_USE.equals(f.reason())) {
            return false;
        }
        java.util.regex.Matcher holder = java.util.regex.Pattern
                .compile("is already the VIP of ServiceLoadBalancer (\\S+);").matcher(refused);
        return holder.find() && f.message().contains("is already the VIP of Service " + holder.group(1) + ";");
    }

    /** validate's verdicts and forecasts, through the reader and the Validation the command runs. */
    static List<Outcome> validate(String yaml) {
        ManifestReader.Inputs read = new ManifestReader(List.of(), Kustomize.fromEnvironment(),
                new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .read(List.of(ManifestReader.STDIN_ARGUMENT), List.of());
        assertThat(read.failures()).isEmpty();
        AdmissionSettings settings = new AdmissionSettings(null, null, null, ManagedServices.CLASSED);
        return new Validation(Validation.inProcess(new AdmissionEngine(settings)), SnapshotClusterView.empty(), "ci",
                settings.managed()).run(read.objects());
    }

    /** Creates the object as kubectl would; the refusal's message when admission refused it (403), else null. */
    static String apply(Outcome o) {
        try {
            admin.resource(KubeObjectsText.json(o.object().content())).create();
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 403) {
                return e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage();
            }
            throw e;
        }
    }

    /**
     * Waits until the webhook's cache holds what was just written (and, for a managed Service, the status the
     * controller gave it): the cluster's answer to the next object must not depend on a cache's lag, which validate
     * does not have (a race docs/allocation.md, "Conflicts stored around admission", says the controller resolves).
     */
    static void seenByTheWebhook(Outcome o, Rendered r) throws InterruptedException {
        String name = o.object().name();
        AddressRange tryRange = new AddressRange(Ipv4.parse(r.base() + "0"), Ipv4.parse(r.base() + "31"));
        java.util.function.BooleanSupplier seen = switch (o.object().kind()) {
            // the indexes the rules read, which follow the informer's store
            case "AddressPool" -> () -> view().poolEntriesOverlapping(tryRange).stream()
                    .anyMatch(e -> name.equals(e.poolName()));
            case "ExternalNetwork" -> () -> view().externalNetworks().stream()
                    .anyMatch(p -> name.equals(p.getMetadata().getName()));
            // the webhook reads Namespace labels from its cache only (no get: least privilege)
            case "Namespace" -> () -> view().namespaceLabels(name).isPresent();
            case "Node" -> () -> view().nodeInternalIpsIn(tryRange).stream().anyMatch(h -> name.equals(h.value()))
                    && (!o.object().content().path("spec").has("podCIDRs") || view().learntRangesOverlapping(tryRange)
                    .stream().anyMatch(l -> l.source().contains(name)));
            default -> () -> true;
        };
        if (o.forecast() != null) {
            ServiceLoadBalancerStatus status = settled(o.object().namespace(), name);
            seen = () -> view().serviceLoadBalancers().stream().anyMatch(s -> name.equals(s.getMetadata().getName())
                    && o.object().namespace().equals(s.getMetadata().getNamespace()) && s.getStatus() != null
                    && Objects.equals(status.getVip(), s.getStatus().getVip()));
        }
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!seen.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the webhook's cache does not show " + o.object().reference() + " after " + SETTLE);
            }
            Thread.sleep(5);
        }
    }

    static me.loutres.juneau.view.ClusterView view() {
        return stack.webhookView().orElseThrow();
    }

    /** Waits until the controller has given the Service's ServiceLoadBalancer a phase: validate's next Service may count on it. */
    static ServiceLoadBalancerStatus settled(String namespace, String name) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (System.nanoTime() < deadline) {
            ServiceLoadBalancer slb = admin.resources(ServiceLoadBalancer.class).inNamespace(namespace).withName(name).get();
            if (slb != null && slb.getStatus() != null && slb.getStatus().getPhase() != null
                    && allocated(slb.getStatus()) != null) {
                return slb.getStatus();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the controller gave " + namespace + "/" + name + " no status in " + SETTLE);
    }

    static Condition allocated(ServiceLoadBalancerStatus s) {
        return s.getConditions() == null ? null : s.getConditions().stream()
                .filter(c -> JuneauConstants.CONDITION_ALLOCATED.equals(c.getType())).findFirst().orElse(null);
    }

    /** {@code phase reason vip}; Allocated is Ready when the Service has a ready endpoint on a Node. */
    static String expected(Outcome.VipForecast f, Boolean readyEndpoint) {
        String phase = JuneauConstants.PHASE_ALLOCATED.equals(f.phase()) && Boolean.TRUE.equals(readyEndpoint)
                ? JuneauConstants.PHASE_READY : f.phase();
        return phase + " " + f.reason() + " " + f.vip();
    }

    static String actual(String namespace, String name) {
        ServiceLoadBalancer slb = admin.resources(ServiceLoadBalancer.class).inNamespace(namespace).withName(name).get();
        if (slb == null) {
            return "unmanaged";
        }
        ServiceLoadBalancerStatus s = slb.getStatus();
        if (s == null) {
            return "no status";
        }
        Condition c = allocated(s);
        return s.getPhase() + " " + (c == null ? null : c.getReason()) + " " + s.getVip();
    }

    // ---- rendering: names and addresses of their own per try, so tries never meet ----

    record Rendered(String yaml, String namespace, String prefix, String base, Map<String, Boolean> readyEndpoint) {
    }

    static Rendered render(Cluster c, int n) {
        String prefix = "t" + n + "-";
        String ns = "agree-" + n;
        // a /27 of its own per try in 10.200.0.0/16 (outside the local API server's ServiceCIDR 10.96.0.0/12, which
        // validate without --cluster-state does not know), never overlapping an earlier try's leftovers
        String base = "10.200." + (n % 256) + ".";
        StringBuilder y = new StringBuilder();
        y.append("apiVersion: v1\nkind: Namespace\nmetadata: {name: ").append(ns).append(", labels: {tenant: gold}}\n");
        for (int i = 0; i < c.nodes().size(); i++) {
            NodeGen node = c.nodes().get(i);
            y.append("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: ").append(prefix).append("n").append(i)
                    .append("\n  labels: {kubernetes.io/hostname: ").append(prefix).append("n").append(i).append("}\n");
            if (node.podCidr()) {
                y.append("spec: {podCIDRs: [\"").append(base).append(node.internalIp() & ~7).append("/29\"]}\n");
            }
            y.append("status:\n  addresses: [{type: InternalIP, address: \"").append(base).append(node.internalIp())
                    .append("\"}]\n  conditions: [{type: Ready, status: \"True\"}]\n");
        }
        for (int i = 0; i < c.pools().size(); i++) {
            Pool p = c.pools().get(i);
            y.append("---\napiVersion: ").append(JuneauConstants.API_VERSION).append("\nkind: AddressPool\nmetadata: {name: ")
                    .append(prefix).append("p").append(i).append("}\nspec:\n  advertiseMode: ")
                    .append(p.arp() ? "arp" : "bgp").append("\n  addresses: [");
            List<String> entries = new ArrayList<>();
            for (Entry e : p.entries()) {
                int size = 1 << e.sizeLog();
                int start = Math.min(e.offset() & ~(size - 1), 32 - size);
                entries.add("\"" + (p.arp() ? base + start + "-" + base + (start + size - 1)
                        : base + start + "/" + (32 - e.sizeLog())) + "\"");
            }
            y.append(String.join(", ", entries)).append("]\n");
        }
        List<List<Integer>> networkAddresses = new ArrayList<>();
        for (int i = 0; i < c.networks().size(); i++) {
            Network net = c.networks().get(i);
            List<Integer> indexes = net.pools().stream().map(p -> p == 9 ? c.pools().size() : p % c.pools().size())
                    .distinct().toList();
            List<String> pools = indexes.stream().map(p -> "\"" + prefix + "p" + p + "\"").toList();
            boolean firstArp = indexes.get(0) < c.pools().size() && c.pools().get(indexes.get(0)).arp();
            boolean arp = net.modeFlip() == 0 ? !firstArp : firstArp;
            List<Integer> addresses = new ArrayList<>();
            for (int p : indexes) {
                if (p < c.pools().size()) {
                    for (Entry e : c.pools().get(p).entries()) {
                        int size = 1 << e.sizeLog();
                        int start = Math.min(e.offset() & ~(size - 1), 32 - size);
                        for (int a = start; a < start + size; a++) {
                            addresses.add(a);
                        }
                    }
                }
            }
            networkAddresses.add(addresses);
            y.append("---\napiVersion: ").append(JuneauConstants.API_VERSION).append("\nkind: ExternalNetwork\nmetadata: {name: ")
                    .append(prefix).append("net").append(i).append("}\nspec: {type: ").append(arp ? "arp" : "bgp")
                    .append(", addressPools: [").append(String.join(", ", pools)).append("]")
                    .append(net.access() < ACCESS.size() && net.access() > 0
                            ? ", serviceAllocation: " + ACCESS.get(net.access()).replace("NS", ns) : "")
                    .append("}\n");
        }
        Map<String, Boolean> ready = new LinkedHashMap<>();
        for (int i = 0; i < c.services().size(); i++) {
            Svc s = c.services().get(i);
            String name = "s" + i;
            int network = s.network() == 9 ? c.networks().size() : s.network() % c.networks().size();
            y.append("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: ").append(name).append("\n  namespace: ")
                    .append(ns).append(s.exposed() ? "\n  labels: {exposure: internet}" : "")
                    .append("\n  annotations:\n    ").append(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK)
                    .append(": ").append(prefix).append("net").append(network).append("\n");
            int requested = s.requested();
            if (requested >= 32) {
                List<Integer> addresses = network < networkAddresses.size() ? networkAddresses.get(network) : List.of();
                requested = addresses.isEmpty() ? requested - 32 : addresses.get((requested - 32) % addresses.size());
            }
            if (requested >= 0) {
                y.append("    ").append(JuneauConstants.ANNOTATION_REQUESTED_IP).append(": \"").append(base)
                        .append(requested).append("\"\n");
            }
            y.append("spec:\n  type: LoadBalancer\n  loadBalancerClass: ")
                    .append(s.ours() ? JuneauConstants.LOAD_BALANCER_CLASS : CLASS_OTHER)
                    .append("\n  externalTrafficPolicy: Local\n  ports: [{port: 80, targetPort: 8080}]\n");
            // a ready endpoint on one of the Nodes: endpoints name existing nodes, as kubelets write them
            int endpointNode = s.endpointNode() < 0 || c.nodes().isEmpty() ? -1 : s.endpointNode() % c.nodes().size();
            ready.put(name, endpointNode >= 0);
            if (endpointNode >= 0) {
                y.append("---\napiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: ").append(name)
                        .append("-x\n  namespace: ").append(ns).append("\n  labels: {kubernetes.io/service-name: ")
                        .append(name).append("}\naddressType: IPv4\nports: [{port: 8080, protocol: TCP}]\n")
                        .append("endpoints: [{addresses: [\"10.250.0.").append(i + 1).append("\"], nodeName: ")
                        .append(prefix).append("n").append(endpointNode)
                        .append(", conditions: {ready: true, serving: true, terminating: false}}]\n");
            }
        }
        return new Rendered(y.toString(), ns, prefix, base, ready);
    }

    /** Services first (the controller releases their VIPs), then what they used; the try's names are its own. */
    static void cleanUp(Rendered r) throws InterruptedException {
        admin.services().inNamespace(r.namespace()).delete();
        long deadline = System.nanoTime() + SETTLE.toNanos();
        // a network a ServiceLoadBalancer names cannot be deleted: wait until the webhook has seen them go
        while ((!admin.resources(ServiceLoadBalancer.class).inNamespace(r.namespace()).list().getItems().isEmpty()
                || view().serviceLoadBalancers().stream().anyMatch(s -> r.namespace().equals(s.getMetadata().getNamespace())))
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        admin.discovery().v1().endpointSlices().inNamespace(r.namespace()).delete();
        for (ExternalNetwork net : admin.resources(ExternalNetwork.class).list().getItems()) {
            if (net.getMetadata().getName().startsWith(r.prefix())) {
                admin.resource(net).delete();
            }
        }
        // a pool listed by a network cannot be deleted: wait until the webhook has seen the networks go
        deadline = System.nanoTime() + SETTLE.toNanos();
        while (view().externalNetworks().stream().anyMatch(n -> n.getMetadata().getName().startsWith(r.prefix()))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        for (AddressPool pool : admin.resources(AddressPool.class).list().getItems()) {
            if (pool.getMetadata().getName().startsWith(r.prefix())) {
                admin.resource(pool).delete();
            }
        }
        admin.nodes().list().getItems().stream().filter(node -> node.getMetadata().getName().startsWith(r.prefix()))
                .forEach(node -> admin.resource(node).delete());
    }

    /** The manifest's JSON as the text a client sends. */
    static final class KubeObjectsText {
        static String json(com.fasterxml.jackson.databind.JsonNode content) {
            return Objects.requireNonNull(content).toString();
        }
    }
}
