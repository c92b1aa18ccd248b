package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says what cannot be read in a cluster-scoped object (an AddressPool entry that offers no address, an
 * ExternalNetwork entry admission would have denied, an object the shared reader refuses), once per change of the
 * object: a Warning {@code MalformedEntry} event per problem on the object (in {@code default}) and
 * {@code juneau_malformed_objects{kind}}. An unchanged object is not reported again, whatever reconciles it.
 */
public final class MalformedReports {
    private static final Logger LOG = LoggerFactory.getLogger(MalformedReports.class);

    private final EventRecorder events;
    private final ControllerMetrics metrics;
    /** The problems last reported per object (uid first), so an unchanged object is not reported again. */
    private final Map<String, List<String>> reported = new ConcurrentHashMap<>();

    public MalformedReports(EventRecorder events, ControllerMetrics metrics) {
        this.events = events;
        this.metrics = metrics;
    }

    /** Reports {@code problems} of {@code object} unless they were the last ones reported; none clears the record. */
    public void report(Term term, HasMetadata object, String kind, List<String> problems) {
        report(term, object, kind, JuneauConstants.EVENT_MALFORMED_ENTRY, problems, () -> metrics.malformedObject(kind));
    }

    /**
     * Reports conflicts with other objects (docs/allocation.md, "Conflicts stored around admission") the same way:
     * once per change, a Warning {@code Conflict} event per sentence, {@code juneau_conflicting_objects{kind}}.
     */
    public void reportConflicts(Term term, HasMetadata object, String kind, List<String> conflicts) {
        report(term, object, kind, EVENT_CONFLICT, conflicts, () -> metrics.conflictingObject(kind));
    }

    /**
     * Reports a pool's addresses inside a range the cluster uses, learnt after the pool was stored, and the VIPs kept
     * there (docs/allocation.md, "Pools overlapping the cluster's ranges"): once per change, a Warning
     * {@code OverlapsClusterRange} event per sentence, counted in {@code juneau_conflicting_objects{kind}}.
     */
    public void reportOverlaps(Term term, HasMetadata object, String kind, List<String> overlaps) {
        report(term, object, kind, me.loutres.juneau.allocation.ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE,
                overlaps, () -> metrics.conflictingObject(kind));
    }

    /**
     * Reports an {@code arp} pool none of whose candidate nodes has a prefix holding some of its entries
     * (docs/troubleshooting.md, "My pool is not on any node's subnet"): once per change, a Warning
     * {@code NotOnNodeSubnet} event.
     */
    public void reportNotOnLink(Term term, HasMetadata object, String kind, List<String> sentences) {
        report(term, object, kind, me.loutres.juneau.status.PoolOnLink.REASON_NOT_ON_NODE_SUBNET, sentences, () -> {
        });
    }

    /** The reason of the Warning event on an object in conflict with another. */
    public static final String EVENT_CONFLICT = "Conflict";

    private void report(Term term, HasMetadata object, String kind, String reason, List<String> problems,
            Runnable count) {
        if (problems.isEmpty() && reported.isEmpty()) {
            return; // the common case, on every reconcile: nothing to report, nothing to clear
        }
        String key = kind + "/" + reason + "/" + object.getMetadata().getName();
        if (problems.isEmpty()) {
            reported.remove(key);
            return;
        }
        List<String> said = new ArrayList<>(problems.size() + 1);
        said.add(String.valueOf(object.getMetadata().getUid()));
        said.addAll(problems);
        if (said.equals(reported.put(key, said))) {
            return;
        }
        for (String problem : problems) {
            LOG.warn("{}", problem);
            count.run();
            events.recordClusterScoped(term, object, EventRecorder.WARNING, reason, problem);
        }
    }

    /** The object is gone. */
    public void forget(String kind, String name) {
        reported.remove(kind + "/" + JuneauConstants.EVENT_MALFORMED_ENTRY + "/" + name);
        reported.remove(kind + "/" + EVENT_CONFLICT + "/" + name);
        reported.remove(kind + "/" + me.loutres.juneau.allocation.ClusterRangeOverlaps.REASON_OVERLAPS_CLUSTER_RANGE
                + "/" + name);
        reported.remove(kind + "/" + me.loutres.juneau.status.PoolOnLink.REASON_NOT_ON_NODE_SUBNET + "/" + name);
    }
}
