package me.loutres.juneau.agent.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.agent.bgp.SessionReport;

/** The agent's series (README.md, "How a VIP answers"), served on {@code /metrics}. */
public final class AgentMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger owned = new AtomicInteger();
    private final AtomicInteger skipped = new AtomicInteger();
    private final Counter gratuitous;
    private final Counter answered;
    private final Counter conflicts;
    private final Counter leaseRenewFailures;
    private final Counter statusWriteFailures;
    private final Timer takeover;
    private final Timer bgpReconfigure;
    private final Counter bgpRestarts;
    private final Map<String, AtomicInteger> sessionUp = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> routesAdvertised = new ConcurrentHashMap<>();
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

    public double bgpDaemonRestarts() {
        return bgpRestarts.count();
    }

    /** The per-peer series: 1/0 for an Established session, and the routes sent to it. */
    public void bgpSessions(List<SessionReport> reports) {
        // a peer that no longer applies keeps its series, at 0
        sessionUp.values().forEach(v -> v.set(0));
        routesAdvertised.values().forEach(v -> v.set(0));
        for (SessionReport r : reports) {
            sessionUp.computeIfAbsent(r.peer(), p -> {
                AtomicInteger v = new AtomicInteger();
                Gauge.builder("juneau_agent_bgp_session_up", v, AtomicInteger::get).tag("peer", p)
                        .description("1 while the BGP session with this peer is Established").register(registry);
                return v;
            }).set(r.established() ? 1 : 0);
            routesAdvertised.computeIfAbsent(r.peer(), p -> {
                AtomicLong v = new AtomicLong();
                Gauge.builder("juneau_agent_bgp_routes_advertised", v, AtomicLong::get).tag("peer", p)
                        .description("Routes this node advertises to this peer").register(registry);
                return v;
            }).set(r.routes());
        }
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
