package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import me.loutres.juneau.allocation.AllocationConflict;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.controller.cache.ClusterCache;
import me.loutres.juneau.controller.metrics.ControllerMetrics;
import me.loutres.juneau.runtime.Backoff;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * docs/allocation.md: before the first allocation of a term, every ServiceLoadBalancer status is read from the API server
 * itself (not the cache, which may lag behind the previous leader's last writes) into a new allocator.
 */
public final class AllocationRestore {
    private static final Logger LOG = LoggerFactory.getLogger(AllocationRestore.class);
    private static final long PAGE = 500L;

    private final KubernetesClient client;
    private final ClusterCache cache;
    private final ControllerMetrics metrics;

    public AllocationRestore(KubernetesClient client, ClusterCache cache, ControllerMetrics metrics) {
        this.client = client;
        this.cache = cache;
        this.metrics = metrics;
    }

    /** The state of the new term, or null when the term ended (or {@code stop} said so) before the list came. */
    public LeaderState restore(Term term, BooleanSupplier stop) throws InterruptedException {
        Backoff<String> retry = new Backoff<>(Duration.ofMillis(200), Duration.ofSeconds(10));
        while (term.active() && !stop.getAsBoolean()) {
            try {
                long t0 = System.nanoTime();
                List<ServiceLoadBalancer> all = listAll();
                AllocationBook book = new AllocationBook();
                cache.pools().forEach(book::syncPool);
                book.syncNodes(cache.nodes());
                book.syncLearntRanges(cache.learntRanges());
                // docs/phases-and-conditions.md: a status that cannot be read never stops the restore (the shared feed keeps a VIP
                // without a pool reserved and leaves an unparsable one out); each is counted, and the reconcile
                // of its key reports it on the Service
                // an unparsable VIP keeps the address its Service still shows (the Services of the informer cache,
                // synced before a term starts: listing every Service again would double the cost of a takeover for
                // a status somebody wrote by hand)
                AllocatorFeed.Records records = AllocatorFeed.records(all, cache.pools(),
                        owner -> me.loutres.juneau.plan.ServicePlanner.ingressIps(cache.service(ServiceKey.parse(owner))));
                records.problems().forEach(p -> {
                    metrics.malformedStatus();
                    LOG.warn("{}", p);
                });
                List<AllocationConflict> conflicts = book.restore(records.records());
                conflicts.forEach(c -> LOG.error("restoring allocations: {}", c));
                LOG.info("restored {} allocations from {} ServiceLoadBalancers in {} ms ({})", records.records().size(),
                        all.size(), (System.nanoTime() - t0) / 1_000_000, term);
                return new LeaderState(term, book, new PendingServices());
            } catch (KubernetesClientException e) {
                Duration d = retry.next("restore");
                // said once; the retries of one outage are not news
                if (retry.failures("restore") == 1) {
                    LOG.warn("cannot list ServiceLoadBalancers to restore allocations ({}); retrying with backoff",
                            firstLine(e));
                } else {
                    LOG.debug("restore still failing ({}); next try in {} ms", firstLine(e), d.toMillis());
                }
                Thread.sleep(d.toMillis());
            }
        }
        return null;
    }

    private List<ServiceLoadBalancer> listAll() {
        List<ServiceLoadBalancer> all = new ArrayList<>();
        String next = null;
        do {
            var page = client.resources(ServiceLoadBalancer.class).inAnyNamespace()
                    .list(new ListOptionsBuilder().withLimit(PAGE).withContinue(next).build());
            all.addAll(page.getItems());
            next = page.getMetadata() == null ? null : page.getMetadata().getContinue();
        } while (next != null && !next.isEmpty());
        return all;
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
