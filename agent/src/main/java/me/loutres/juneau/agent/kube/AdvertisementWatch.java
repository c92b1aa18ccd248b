package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.AdvertisementRead;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.runtime.watch.ApiConnection;
import me.loutres.juneau.runtime.watch.VersionMemo;
import me.loutres.juneau.runtime.watch.Watched;
import me.loutres.juneau.runtime.watch.WatchedCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch of the ARPAdvertisements labelled with this node (a kind of the agent's one {@link WatchedCache}), and
 * what it takes to trust it: generic objects read one by one, each version once (a typed informer that meets one
 * malformed object fails the whole list), the skipped ones said once, and a fresh list when the API server came back
 * with other contents. Called from the agent's one reconcile thread only (except the getters).
 */
public final class AdvertisementWatch {
    private static final Logger LOG = LoggerFactory.getLogger(AdvertisementWatch.class);
    private static final ResourceDefinitionContext ADVERTISEMENTS =
            ResourceDefinitionContext.fromResourceType(ARPAdvertisement.class);
    private static final Duration RECHECK = Duration.ofSeconds(1);
    /** How long the watch may take to bring its cache in line with a direct list after an outage. */
    private static final Duration CACHE_SETTLE = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final String node;
    private final ApiConnection api;
    private final AgentMetrics metrics;
    private final Reporter reporter;
    private final Executor events;
    private final Clock clock;
    private final Watched<GenericKubernetesResource> watched;
    private boolean wasDown;
    private long cacheCheckSince;
    private long lastCacheCheck;
    private final VersionMemo<AdvertisementRead> reads = new VersionMemo<>();
    private Map<String, AdvertisementRead> lastReads = Map.of();
    private Map<String, String> lastSkipped = Map.of();

    /**
     * Adds the kind to {@code watches}, which starts, checks and stops it with the agent's other watches.
     *
     * @param events sends the Warning Events about skipped advertisements (off the reconcile thread)
     */
    public AdvertisementWatch(KubernetesClient client, WatchedCache watches, String node, AgentMetrics metrics,
            Reporter reporter, Executor events, Clock clock, Runnable onChange) {
        this.client = client;
        this.node = node;
        this.api = watches.connection();
        this.metrics = metrics;
        this.reporter = reporter;
        this.events = events;
        this.clock = clock;
        this.watched = watches.watch("ARPAdvertisement", client.genericKubernetesResources(ADVERTISEMENTS)
                .withLabel(JuneauConstants.LABEL_NODE, node)).store(LeanStore::keepingStatus).onChange(onChange);
    }

    /** Since when (the clock's millis) the watch has been down, 0 while it watches. */
    public long notWatchingSince() {
        return watched.notWatchingSince();
    }

    /** The watch's cache. */
    public List<GenericKubernetesResource> cached() {
        return watched.list();
    }

    /** One direct list from the API server (after a pause: the cache may be older than the Lease). */
    public List<GenericKubernetesResource> listFromServer() {
        return client.genericKubernetesResources(ADVERTISEMENTS).withLabel(JuneauConstants.LABEL_NODE, node).list()
                .getItems();
    }

    /** Whether {@code list} holds the same objects, at the same versions, as the cache. */
    public boolean matchesCache(List<GenericKubernetesResource> list) {
        return versions(list).equals(versions(cached()));
    }

    /**
     * After an outage a watch resumes from its last resourceVersion, without a list. An API server that came back
     * with other contents (a restored or replaced store) would leave the cache stale for good, answering for
     * advertisements that no longer exist; so once the watch is back, one direct list is compared with the cache,
     * and a cache that still differs after a few seconds is replaced by a fresh informer (a fresh list).
     *
     * @return true while a fresh informer is listing (nothing should change until its list is in)
     */
    public boolean replacedAfterOutage() {
        boolean down = api.down();
        long now = clock.millis();
        if (wasDown && !down) {
            cacheCheckSince = now;
            lastCacheCheck = 0;
        }
        wasDown = down;
        if (cacheCheckSince == 0 || down || (lastCacheCheck != 0 && now - lastCacheCheck < RECHECK.toMillis())) {
            return false;
        }
        lastCacheCheck = now;
        List<GenericKubernetesResource> server;
        try {
            server = listFromServer();
        } catch (KubernetesClientException e) {
            return false; // the next turn tries again
        }
        if (matchesCache(server)) {
            cacheCheckSince = 0;
        } else if (now - cacheCheckSince > CACHE_SETTLE.toMillis()) {
            cacheCheckSince = 0;
            LOG.info("the API server's ARPAdvertisements differ from the watch's cache after the outage (a restored or"
                    + " replaced store?); listing them afresh");
            watched.relist();
            return true;
        }
        return false;
    }

    private static Map<String, String> versions(List<GenericKubernetesResource> list) {
        return list.stream().filter(a -> a.getMetadata() != null).collect(Collectors.toMap(
                a -> String.valueOf(a.getMetadata().getName()),
                a -> String.valueOf(a.getMetadata().getResourceVersion()), (a, b) -> a));
    }

    /**
     * The readable advertisements, each version read once; the unreadable ones are remembered with their problem
     * (for {@link #reportSkipped}) and otherwise ignored.
     */
    public List<ARPAdvertisement> readAll(List<GenericKubernetesResource> raw) {
        lastReads = reads.readAll(raw, (g, earlier) -> AdvertisementRead.of(g));
        return lastReads.values().stream().filter(AdvertisementRead::readable).map(AdvertisementRead::advertisement)
                .toList();
    }

    /**
     * Says, once per object and problem, which advertisements this node skips: a log line, a Warning event on the
     * advertisement and the skipped gauge. Never an exception: one bad object must not stop the node answering
     * the good ones.
     */
    public void reportSkipped(Map<String, String> invalid) {
        Map<String, String> skipped = new TreeMap<>(invalid);
        lastReads.values().stream().filter(r -> !r.readable()).forEach(r -> skipped.put(r.name(), r.problem()));
        metrics.skipped(skipped.size());
        if (skipped.equals(lastSkipped)) {
            return;
        }
        skipped.forEach((name, problem) -> {
            if (!problem.equals(lastSkipped.get(name))) {
                LOG.warn("skipping ARPAdvertisement {}: {}", name.isEmpty() ? "(without a name)" : name, problem);
                if (!name.isEmpty()) {
                    Reporter.Involved about = involved(name);
                    events.execute(() -> reporter.eventOnAdvertisement(about, "Warning",
                            JuneauConstants.EVENT_INVALID_ADVERTISEMENT, "node " + node
                                    + " does not answer ARP for this advertisement: " + problem));
                }
            }
        });
        lastSkipped = Map.copyOf(skipped);
    }

    /** The advertisement of that name as the cache has it (its uid for the Event), or only the name when gone. */
    private Reporter.Involved involved(String name) {
        for (GenericKubernetesResource g : cached()) {
            if (g.getMetadata() != null && name.equals(g.getMetadata().getName())) {
                return new Reporter.Involved(name, g.getMetadata().getUid(), g.getMetadata().getResourceVersion());
            }
        }
        return new Reporter.Involved(name, null, null);
    }
}
