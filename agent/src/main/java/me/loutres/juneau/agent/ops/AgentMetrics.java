package me.loutres.juneau.agent.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.agent.bgp.RefusedPiece;
import me.loutres.juneau.agent.bgp.SessionReport;

/** The agent's series (README.md, "How a VIP answers"), served on {@code /metrics}. */
public final class AgentMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger owned = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final Counter gratuitous;
    private final Counter answered;
    private final Counter conflicts;
    private final Counter addressConflicts;
    private final Counter leaseRenewFailures;
    private final Counter statusWriteFailures;
    private final Timer takeover;
    private final Timer bgpReconfigure;
    private final Counter bgpRestarts;
    private final Counter bgpRefusals;
    private final Map<String, PeerSeries> sessionUp = new ConcurrentHashMap<>();
    private final Map<String, Gauge> refused = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> malformed = new ConcurrentHashMap<>();

    public AgentMetrics() {
        Gauge.builder("juneau_agent_vips_owned", owned, AtomicInteger::get)
                .description("VIPs this node answers ARP for").register(registry);
        Gauge.builder("juneau_agent_advertisements_skipped", skipped, AtomicInteger::get)
                .description("ARPAdvertisements labelled for this node that are malformed and not answered (see the"
                        + " agent's log and the InvalidAdvertisement events)").register(registry);
        gratuitous = Counter.builder("juneau_agent_gratuitous_arps_sent")
                .description("Gratuitous ARP frames sent (request and reply form count one each)").register(registry);
        answered = Counter.builder("juneau_agent_arp_requests_answered")
                .description("ARP requests for an owned VIP answered").register(registry);
        conflicts = Counter.builder("juneau_agent_arp_conflicts")
                .description("ARP frames from another MAC claiming a VIP this node owns").register(registry);
        addressConflicts = Counter.builder("juneau_agent_address_conflicts")
                .description("VIPs found used by another device: a probe before the first announcement answered by a"
                        + " foreign MAC (not announced), or a foreign claim on an answered VIP (at most one a minute"
                        + " per VIP)").register(registry);
        leaseRenewFailures = Counter.builder("juneau_agent_lease_renew_failures")
                .description("Failed writes of the agent's liveness Lease").register(registry);
        statusWriteFailures = Counter.builder("juneau_agent_status_write_failures")
                .description("Failed ARPAdvertisement status writes (retried with backoff)").register(registry);
        takeover = Timer.builder("juneau_agent_takeover")
                .description("From the agent learning it owns a VIP to its first gratuitous ARP on the wire")
                .publishPercentileHistogram(true).minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
        bgpReconfigure = Timer.builder("juneau_agent_bgp_reconfigure")
                .description("Writing BIRD's configuration and its 'configure', for each change")
                .publishPercentileHistogram(true).minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30)).register(registry);
        bgpRestarts = Counter.builder("juneau_agent_bgp_daemon_restarts")
                .description("Times BIRD died alone and was started again").register(registry);
        bgpRefusals = Counter.builder("juneau_agent_bgp_configuration_refusals")
                .description("Failed attempts to have BIRD run a configuration (a 'configure' it answered with an"
                        + " error, a start it exited from, no answer): a refused piece is then left out, and what"
                        + " failed is tried again with backoff, at most once a second")
                .register(registry);
    }

    public void bgpReconfigured(Duration took) {
        bgpReconfigure.record(took);
    }

    public long bgpReconfigureCount() {
        return bgpReconfigure.count();
    }

    public void bgpDaemonRestarted() {
        bgpRestarts.increment();
    }

    public void bgpConfigurationRefused() {
        bgpRefusals.increment();
    }

    public double bgpRefusals() {
        return bgpRefusals.count();
    }

    public double bgpDaemonRestarts() {
        return bgpRestarts.count();
    }

    /**
     * The per-peer series: 1/0 for an Established session, and the routes sent to it. The series of a peer that no
     * longer applies to the node (deleted, no longer selecting it) go with it: a scrape lists the sessions there are.
     */
    public void bgpSessions(List<SessionReport> reports) {
        Set<String> peers = new HashSet<>();
        for (SessionReport r : reports) {
            peers.add(r.peer());
            sessionUp.computeIfAbsent(r.peer(), p -> new PeerSeries(registry, p)).set(r);
        }
        sessionUp.entrySet().removeIf(e -> !peers.contains(e.getKey()) && e.getValue().remove(registry));
    }

    /** One peer's two gauges, kept to be removed from the registry with the peer. */
    private static final class PeerSeries {
        private final AtomicInteger up = new AtomicInteger();
        private final AtomicLong routes = new AtomicLong();
        private final Gauge upGauge;
        private final Gauge routesGauge;

        PeerSeries(PrometheusMeterRegistry registry, String peer) {
            upGauge = Gauge.builder("juneau_agent_bgp_session_up", up, AtomicInteger::get).tag("peer", peer)
                    .description("1 while the BGP session with this peer is Established").register(registry);
            routesGauge = Gauge.builder("juneau_agent_bgp_routes_advertised", routes, AtomicLong::get)
                    .tag("peer", peer).description("Routes this node advertises to this peer").register(registry);
        }

        void set(SessionReport r) {
            up.set(r.established() ? 1 : 0);
            routes.set(r.routes());
        }

        boolean remove(PrometheusMeterRegistry registry) {
            registry.remove(upGauge);
            registry.remove(routesGauge);
            return true;
        }
    }

    /**
     * The pieces of BIRD's configuration it refused and the agent leaves out (docs/bgp.md, "Troubleshooting"): 1 per
     * refused peer or network, by kind and name; a piece BIRD takes again loses its series.
     */
    public void bgpRefused(List<RefusedPiece> pieces) {
        Map<String, RefusedPiece> now = new HashMap<>();
        pieces.forEach(p -> now.put(p.kind().objectKind() + "/" + p.name(), p));
        refused.entrySet().removeIf(e -> {
            if (now.containsKey(e.getKey())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
        now.forEach((key, p) -> refused.computeIfAbsent(key, k -> Gauge.builder("juneau_agent_bgp_refused",
                () -> 1).tag("kind", p.kind().objectKind()).tag("name", p.name())
                .description("1 for each peer or network BIRD refused, left out of this node's configuration (its"
                        + " BGPSession's lastError or withheldNetworks says BIRD's words)").register(registry)));
    }

    /** How many pieces BIRD refuses now (tests). */
    public int bgpRefusedCount() {
        return refused.size();
    }

    /**
     * How many objects of {@code kind} the agent's BGP half cannot read now (docs/bgp.md): each is skipped, or
     * stands in with its last readable version, and is named once per version in the log.
     */
    public void malformed(String kind, int count) {
        malformed.computeIfAbsent(kind, k -> {
            AtomicInteger v = new AtomicInteger();
            Gauge.builder("juneau_agent_malformed_objects", v, AtomicInteger::get).tag("kind", k)
                    .description("Objects the agent cannot read (a field of the wrong type, stored around admission):"
                            + " skipped, or used as their last readable version; named in the agent's log")
                    .register(registry);
            return v;
        }).set(count);
    }

    public int malformed(String kind) {
        AtomicInteger v = malformed.get(kind);
        return v == null ? 0 : v.get();
    }

    /**
     * A write the API server refused (403 Forbidden, 422 Invalid), by kind and the server's reason
     * ({@code juneau_agent_writes_refused_total}; docs/troubleshooting.md).
     */
    public void writeRefused(String kind, String reason) {
        Counter.builder("juneau_agent_writes_refused").tag("kind", kind).tag("reason", reason)
                .description("Writes the API server refused (RBAC or admission): the kind and the server's reason;"
                        + " the agent's log says each once, its Lease annotation juneau.loutres.me/refused-writes"
                        + " the latest").register(registry).increment();
    }

    public double writesRefused(String kind, String reason) {
        Counter c = registry.find("juneau_agent_writes_refused").tag("kind", kind).tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public String scrape() {
        return registry.scrape();
    }

    public void owned(int count) {
        owned.set(count);
    }

    public int owned() {
        return owned.get();
    }

    public void skipped(int count) {
        skipped.set(count);
    }

    public int skipped() {
        return skipped.get();
    }

    public void gratuitousSent(int frames) {
        gratuitous.increment(frames);
    }

    public double gratuitousSent() {
        return gratuitous.count();
    }

    public void answered() {
        answered.increment();
    }

    public double answeredCount() {
        return answered.count();
    }

    public void conflict() {
        conflicts.increment();
    }

    public double conflictCount() {
        return conflicts.count();
    }

    public void addressConflict() {
        addressConflicts.increment();
    }

    public double addressConflictCount() {
        return addressConflicts.count();
    }

    public void leaseRenewFailed() {
        leaseRenewFailures.increment();
    }

    public double leaseRenewFailures() {
        return leaseRenewFailures.count();
    }

    public void statusWriteFailed() {
        statusWriteFailures.increment();
    }

    public void takeover(Duration took) {
        takeover.record(took);
    }

    public long takeoverCount() {
        return takeover.count();
    }
}
