package me.loutres.juneau.runtime;

import me.loutres.juneau.testing.Eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The runtime without leader election (a per-node agent's mode): one term from start to close. */
class ControllerRuntimeTest {

    /** Records outcomes per kind so tests observe the runtime only through its public hooks. */
    static final class Recorded implements RuntimeMetrics {
        final List<String> outcomes = new CopyOnWriteArrayList<>();
        final Map<String, WorkQueue<?>> queues = new ConcurrentHashMap<>();

        @Override
        public void reconciled(String kind, String outcome, Duration took) {
            outcomes.add(kind + ":" + outcome);
        }

        @Override
        public void queue(String name, WorkQueue<?> queue) {
            queues.put(name, queue);
        }

        long count(String s) {
            return outcomes.stream().filter(s::equals).count();
        }
    }

    @Test
    void workersReconcileEveryKeyAndNeverOneKeyTwiceAtOnce() {
        Recorded m = new Recorded();
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger overlaps = new AtomicInteger();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        try (ControllerRuntime rt = new ControllerRuntime("t", m)) {
            WorkQueue<String> q = rt.register(Registration.<String>of("thing", "things", (key, term) -> {
                if (!inFlight.add(key)) {
                    overlaps.incrementAndGet();
                }
                Thread.sleep(1);
                inFlight.remove(key);
                runs.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                return Result.DONE;
            }).withWorkers(4));
            rt.startWithoutLeaderElection();
            Eventually.until("term running", rt::leading);
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 10; i++) {
                    q.add("k" + i);
                }
            }
            Eventually.until("queue drained", () -> q.pending() == 0);
            assertThat(overlaps).hasValue(0);
            assertThat(runs).hasSize(10);
            assertThat(m.queues).containsKey("things");
            assertThat(m.outcomes).allMatch("thing:ok"::equals);
        }
    }

    @Test
    void aThrowingReconcileIsRetriedAndTheReconcilerHearsOfIt() {
        Recorded m = new Recorded();
        AtomicInteger attempts = new AtomicInteger();
        List<String> told = new CopyOnWriteArrayList<>();
        Reconciler<String> flaky = new Reconciler<>() {
            @Override
            public Result reconcile(String key, Term term) {
                int n = attempts.incrementAndGet();
                if (n == 1) {
                    throw new KubernetesClientException("changed", 409, null);
                }
                if (n == 2) {
                    throw new IllegalStateException("boom");
                }
                return Result.DONE;
            }

            @Override
            public void failed(String key, Exception e) {
                told.add(key + ":" + e.getClass().getSimpleName());
            }
        };
        try (ControllerRuntime rt = new ControllerRuntime("t", m)) {
            WorkQueue<String> q = rt.register(Registration.of("flaky", "flaky", flaky));
            rt.startWithoutLeaderElection();
            q.add("a");
            Eventually.until("third attempt succeeded", () -> m.count("flaky:ok") == 1);
            assertThat(m.outcomes).containsExactly("flaky:conflict", "flaky:error", "flaky:ok");
            assertThat(told).containsExactly("a:KubernetesClientException", "a:IllegalStateException");
            assertThat(rt.failed()).isFalse();
        }
    }

    @Test
    void requeueAfterAndHandledRetriesComeBackAndAreCountedByCause() {
        Recorded m = new Recorded();
        AtomicInteger attempts = new AtomicInteger();
        try (ControllerRuntime rt = new ControllerRuntime("t", m)) {
            WorkQueue<String> q = rt.register(Registration.<String>of("k", "q", (key, term) -> switch (attempts
                    .incrementAndGet()) {
                case 1 -> Result.after(Duration.ofMillis(5));
                case 2 -> Result.retry("write-denied", Duration.ofMillis(5), Duration.ofMillis(10));
                default -> Result.DONE;
            }));
            rt.startWithoutLeaderElection();
            q.add("a");
            Eventually.until("three runs", () -> m.outcomes.size() == 3);
            Eventually.until("queue drained", () -> q.pending() == 0);
            assertThat(m.outcomes).containsExactly("k:ok", "k:write-denied", "k:ok");
        }
    }

    @Test
    void lostLeadershipDropsTheKeyWithoutRetry() {
        Recorded m = new Recorded();
        AtomicInteger attempts = new AtomicInteger();
        try (ControllerRuntime rt = new ControllerRuntime("t", m)) {
            WorkQueue<String> q = rt.register(Registration.<String>of("k", "q", (key, term) -> {
                attempts.incrementAndGet();
                throw new LostLeadershipException(term.number());
            }));
            rt.startWithoutLeaderElection();
            q.add("a");
            Eventually.until("queue drained", () -> m.outcomes.size() == 1 && q.pending() == 0);
            assertThat(m.outcomes).containsExactly("k:lost-leadership");
            assertThat(attempts).hasValue(1);
        }
    }

    @Test
    void aWorkerDyingOfAnErrorFailsTheRuntimeAndEndsTheTerm() {
        List<Term> ended = new CopyOnWriteArrayList<>();
        try (ControllerRuntime rt = new ControllerRuntime("t", RuntimeMetrics.NONE)) {
            WorkQueue<String> q = rt.register(Registration.<String>of("k", "q", (key, term) -> {
                throw new StackOverflowError("deep");
            }));
            rt.onTermEnd(ended::add);
            rt.startWithoutLeaderElection();
            Eventually.until("term running", rt::leading);
            q.add("a");
            Eventually.until("runtime failed", rt::failed);
            assertThat(rt.failure()).contains("worker died").contains("StackOverflowError");
            Eventually.until("term ended", () -> !ended.isEmpty());
            assertThat(rt.leading()).isFalse();
            assertThat(ended.get(0).active()).isFalse();
        }
    }

    @Test
    void aTermStartHookThatThrowsFailsTheRuntimeAndStartsNoWorker() {
        AtomicInteger reconciles = new AtomicInteger();
        try (ControllerRuntime rt = new ControllerRuntime("t", RuntimeMetrics.NONE)) {
            WorkQueue<String> q = rt.register(Registration.<String>of("k", "q", (key, term) -> {
                reconciles.incrementAndGet();
                return Result.DONE;
            }));
            rt.onTermStart(term -> {
                throw new NullPointerException("status.addressPool");
            });
            q.add("a");
            rt.startWithoutLeaderElection();
            Eventually.until("runtime failed", rt::failed);
            assertThat(rt.failure()).contains("NullPointerException").contains("status.addressPool");
            assertThat(rt.leading()).isFalse();
            assertThat(reconciles).hasValue(0);
        }
    }

    @Test
    void theTermStartHookRunsBeforeAnyWorkerAndCloseEndsTheTerm() {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Term> ended = new CopyOnWriteArrayList<>();
        ControllerRuntime rt = new ControllerRuntime("t", RuntimeMetrics.NONE);
        WorkQueue<String> q = rt.register(Registration.<String>of("k", "q", (key, term) -> {
            order.add("reconcile " + key);
            return Result.DONE;
        }));
        rt.onTermStart(term -> {
            q.add("first");
            order.add("prepare " + term.number());
            return true;
        });
        rt.onTermEnd(ended::add);
        rt.startWithoutLeaderElection();
        Eventually.until("reconciled", () -> order.size() == 2);
        assertThat(order).containsExactly("prepare 1", "reconcile first");
        rt.close();
        assertThat(ended).hasSize(1);
        assertThat(ended.get(0).active()).isFalse();
        assertThat(rt.leading()).isFalse();
        assertThat(rt.failed()).isFalse();
    }

    @Test
    void registrationsAreFixedOnceStartedAndStartHappensOnce() {
        try (ControllerRuntime rt = new ControllerRuntime("t", RuntimeMetrics.NONE)) {
            rt.startWithoutLeaderElection();
            assertThatThrownBy(() -> rt.register(Registration.<String>of("k", "q", (k, t) -> Result.DONE)))
                    .hasMessageContaining("before the runtime starts");
            assertThatThrownBy(rt::startWithoutLeaderElection).hasMessageContaining("started once");
        }
        assertThatThrownBy(() -> Registration.<String>of("k", "q", (k, t) -> Result.DONE).withWorkers(0))
                .hasMessageContaining("at least one worker");
        assertThatThrownBy(() -> Result.retry("x", Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("0 < base <= cap");
    }
}
