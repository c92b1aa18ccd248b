package me.loutres.juneau.agent.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import me.loutres.juneau.agent.arp.Speaker;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.ip.Ipv4;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ARP half's reports: each owned ARPAdvertisement's status (answered, or why not), written only when it changes,
 * a failed write retried with backoff per advertisement; and one log line per new problem. What the node answers is
 * the {@link Speaker}'s; this class only says it.
 */
public final class ArpStatusWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ArpStatusWriter.class);

    private final Reporter reporter;
    private final AgentMetrics metrics;
    private final String node;
    private final Duration maxBackoff;
    private final Clock clock;
    private final Map<Long, Instant> announcedAt = new HashMap<>();
    private final Map<String, Retry> statusRetries = new HashMap<>();
    private Map<Long, String> lastProblems = Map.of();

    private record Retry(long notBeforeMillis, int failures) {
    }

    public ArpStatusWriter(Reporter reporter, AgentMetrics metrics, String node, Duration maxBackoff, Clock clock) {
        this.clock = clock;
        this.reporter = reporter;
        this.metrics = metrics;
        this.node = node;
        this.maxBackoff = maxBackoff;
    }

    /** The node started answering for {@code vip}: its status says since when. */
    public void gained(long vip) {
        announcedAt.put(vip, clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }

    public void lost(long vip) {
        announcedAt.remove(vip);
    }

    /** Advertisements for this node that read but cannot be answered: status {@code Announced=False InvalidConfig}. */
    public void writeInvalidStatuses(List<ARPAdvertisement> list, Map<String, String> invalid) {
        for (ARPAdvertisement a : list) {
            String name = a.getMetadata().getName();
            String problem = invalid.get(name);
            if (problem == null || a.getSpec() == null || !node.equals(a.getSpec().getNodeName())) {
                continue; // the status belongs to the node the spec names (docs/admission.md)
            }
            writeStatus(a, new Reporter.Wanted(null, null, null, JuneauConstants.REASON_INVALID_CONFIG, problem));
        }
    }

    public void logProblems(Map<Long, String[]> problems, SortedMap<Long, Claim> owned) {
        Map<Long, String> flat = new HashMap<>();
        problems.forEach((vip, p) -> flat.put(vip, p[0] + ": " + p[1]));
        if (!flat.equals(lastProblems)) {
            flat.forEach((vip, p) -> {
                if (!p.equals(lastProblems.get(vip))) {
                    LOG.warn("cannot answer ARP for {} ({}): {}", Ipv4.format(vip), owned.get(vip).advertisement(), p);
                }
            });
            lastProblems = flat;
        }
    }

    public void writeStatuses(List<ARPAdvertisement> list, SortedMap<Long, Claim> owned,
            Map<Long, Speaker.Binding> answering, Map<Long, String[]> problems) {
        writeStatuses(list, owned, answering, problems, Map.of());
    }

    /**
     * @param conflicts VIPs answered although another station claims them too (the message): the status keeps the
     *                  interface, MAC and {@code announcedAt}, with {@code Announced=False AddressConflict}
     */
    public void writeStatuses(List<ARPAdvertisement> list, SortedMap<Long, Claim> owned,
            Map<Long, Speaker.Binding> answering, Map<Long, String[]> problems, Map<Long, String> conflicts) {
        Map<String, ARPAdvertisement> byName = new HashMap<>();
        list.forEach(a -> byName.put(a.getMetadata().getName(), a));
        statusRetries.keySet().retainAll(byName.keySet());
        for (Claim c : owned.values()) {
            ARPAdvertisement current = byName.get(c.advertisement());
            Speaker.Binding b = answering.get(c.vip());
            Reporter.Wanted wanted;
            if (b != null) {
                Instant since = announcedAt.getOrDefault(c.vip(), clock.instant().truncatedTo(ChronoUnit.SECONDS));
                String conflict = conflicts.get(c.vip());
                wanted = conflict != null ? new Reporter.Wanted(b.iface().name(), b.iface().mac().toString(),
                        since.toString(), JuneauConstants.REASON_ADDRESS_CONFLICT, conflict)
                        : new Reporter.Wanted(b.iface().name(), b.iface().mac().toString(), since.toString(),
                                JuneauConstants.REASON_ANNOUNCED, "answering ARP for " + c.vipText() + " on "
                                        + b.iface().name() + " with " + b.iface().mac());
            } else if (problems.containsKey(c.vip())) {
                String[] p = problems.get(c.vip());
                wanted = new Reporter.Wanted(null, null, null, p[0], p[1]);
            } else {
                continue; // suspended after a pause: say nothing until the fresh list
            }
            if (current != null) {
                writeStatus(current, wanted);
            }
        }
    }

    /**
     * Writes one advertisement's status as {@code wanted} unless it is already there (with the same backoff): the NDP
     * half (docs/ndp.md) keys its VIPs by IPv6 address and says its own words, but writes the same way.
     */
    public void write(ARPAdvertisement current, Reporter.Wanted wanted) {
        writeStatus(current, wanted);
    }

    /** Writes a status unless it is already there, retrying a failed write with backoff (per advertisement). */
    void writeStatus(ARPAdvertisement current, Reporter.Wanted wanted) {
        String name = current.getMetadata().getName();
        if (reporter.upToDate(current, wanted)) {
            statusRetries.remove(name);
            return;
        }
        long nowMillis = clock.millis();
        Retry retry = statusRetries.get(name);
        if (retry != null && nowMillis < retry.notBeforeMillis()) {
            return;
        }
        if (reporter.writeStatus(current, wanted)) {
            statusRetries.remove(name);
        } else {
            metrics.statusWriteFailed();
            int failures = retry == null ? 1 : retry.failures() + 1;
            long delay = Math.min(maxBackoff.toMillis(), 500L << Math.min(failures, 6));
            statusRetries.put(name, new Retry(nowMillis + delay, failures));
        }
    }

}
