package me.loutres.juneau.agent.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** The agent's series (SPEC §8), served on {@code /metrics}. */
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
