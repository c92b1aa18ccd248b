package me.loutres.juneau.webhook.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * Runs cases against one target with a deadline per case, on worker threads watched for deaths, and reports every
 * failure with its seed and a minimised input. A case is "hung" when it is not answered within the deadline; a
 * thread that an uncaught throwable ends is a dead thread.
 */
public final class FuzzRunner {
    /** Something that answers one case (a servlet in-process, a server over HTTPS, the validate command). */
    @FunctionalInterface
    public interface Target {
        FuzzOracle.Answer send(FuzzCase c) throws Exception;
    }

    /** What a target's answers must satisfy; the fuzz case and the answer, the first problem if any. */
    @FunctionalInterface
    public interface Oracle {
        Optional<String> problem(FuzzCase c, FuzzOracle.Answer answer);
    }

    public record Failure(long seed, String problem, String original, String minimised, String answer) {
        @Override
        public String toString() {
            return "seed " + seed + ": " + problem + "\n  case: " + original + "\n  minimised input: " + minimised
                    + "\n  its answer: " + answer + "\n  rerun: -Dfuzz.seed=" + seed + " -Dfuzz.cases=1";
        }
    }

    public record Report(int cases, List<Failure> failures, int failed, Map<String, Integer> outcomes,
                         Map<String, Integer> problems, int deadThreads, long millis, long slowestMillis,
                         long slowestSeed) {
        public String summary() {
            return cases + " cases in " + millis + " ms: " + failed + " failed " + problems + ", " + deadThreads
                    + " dead threads, slowest " + slowestMillis + " ms (seed " + slowestSeed + "); answers " + outcomes;
        }
    }

    private final Target target;
    private final Oracle oracle;
    private final LongFunction<FuzzCase> generator;
    private final Duration deadline;
    private final int threads;
    private java.util.function.Function<FuzzCase, String> show = c -> c.printable(1200);

    public FuzzRunner(Target target, Oracle oracle, LongFunction<FuzzCase> generator, Duration deadline, int threads) {
        this.target = target;
        this.oracle = oracle;
        this.generator = generator;
        this.deadline = deadline;
        this.threads = threads;
    }

    /** How a failing case's input is shown (default: the request body, cut at 1,200 characters). */
    public FuzzRunner showing(java.util.function.Function<FuzzCase, String> shown) {
        this.show = shown;
        return this;
    }

    /** Cases {@code firstSeed .. firstSeed + cases - 1}. */
    public Report run(long firstSeed, int cases) throws InterruptedException {
        AtomicInteger dead = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread t = new Thread(runnable, "fuzz-worker");
            t.setDaemon(true);
            t.setUncaughtExceptionHandler((thread, e) -> dead.incrementAndGet());
            return t;
        });
        Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        Map<String, Integer> problems = new ConcurrentHashMap<>();
        List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        long slowest = 0;
        long slowestSeed = -1;
        try {
            int window = threads * 4;
            List<Future<Outcome>> inFlight = new ArrayList<>();
            List<Long> inFlightSeeds = new ArrayList<>();
            for (int i = 0; i < cases || !inFlight.isEmpty(); ) {
                while (i < cases && inFlight.size() < window) {
                    long seed = firstSeed + i++;
                    inFlight.add(pool.submit(() -> once(seed)));
                    inFlightSeeds.add(seed);
                }
                Future<Outcome> next = inFlight.remove(0);
                long seed = inFlightSeeds.remove(0);
                Outcome outcome;
                try {
                    outcome = next.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException hung) {
                    next.cancel(true);
                    outcome = new Outcome("hung", Optional.of("no answer within " + deadline.toMillis() + " ms (hung)"),
                            deadline.toMillis());
                } catch (ExecutionException died) {
                    Throwable cause = died.getCause();
                    outcome = new Outcome("thrown", Optional.of("the target threw " + cause.getClass().getName()
                            + (cause instanceof Error ? " (a thread would die)" : "")), 0);
                }
                outcomes.merge(outcome.label(), 1, Integer::sum);
                if (outcome.millis() > slowest) {
                    slowest = outcome.millis();
                    slowestSeed = seed;
                }
                if (outcome.problem().isPresent()) {
                    failed.incrementAndGet();
                    problems.merge(outcome.problem().get(), 1, Integer::sum);
                    if (failures.size() < 10) {
                        failures.add(describe(seed, outcome.problem().get()));
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        return new Report(cases, List.copyOf(failures), failed.get(), new TreeMap<>(outcomes), new TreeMap<>(problems),
                dead.get(),
                (System.nanoTime() - start) / 1_000_000, slowest, slowestSeed);
    }

    private record Outcome(String label, Optional<String> problem, long millis) {
    }

    private Outcome once(long seed) throws Exception {
        FuzzCase c = generator.apply(seed);
        long t0 = System.nanoTime();
        FuzzOracle.Answer answer = target.send(c);
        long millis = (System.nanoTime() - t0) / 1_000_000;
        return new Outcome(String.valueOf(answer.status()), oracle.problem(c, answer), millis);
    }

    private Failure describe(long seed, String problem) {
        FuzzCase c = generator.apply(seed);
        FuzzCase small = minimise(c, problem);
        String answer;
        try {
            FuzzOracle.Answer a = target.send(small);
            String text = a.text().replaceAll("\\s+", " ");
            answer = a.status() + " " + (text.length() > 600 ? text.substring(0, 600) + "..." : text);
        } catch (Exception | Error e) {
            answer = "threw " + e;
        }
        return new Failure(seed, problem, c.toString(), show.apply(small), answer);
    }

    /**
     * Greedy structural shrinking: drop object fields and array elements (halving huge ones first) as long as the
     * case still fails the same way. Bounded, so a report never waits long for it.
     */
    FuzzCase minimise(FuzzCase c, String problem) {
        if (c.tree() == null || problem.contains("(hung)")) {
            return c; // shrinking a hang would wait for the deadline hundreds of times
        }
        String kind = problem.replaceAll("\\(.*", "").strip();
        FuzzCase best = c;
        int budget = 300;
        boolean shrunk = true;
        while (shrunk && budget > 0) {
            shrunk = false;
            List<JsonNode> candidates = new ArrayList<>();
            shrinkings(best.tree(), best.tree(), candidates);
            for (JsonNode candidate : candidates) {
                if (budget-- <= 0) {
                    break;
                }
                FuzzCase smaller = best.withTree(candidate);
                if (failsLike(smaller, kind)) {
                    best = smaller;
                    shrunk = true;
                    break;
                }
            }
        }
        return best;
    }

    private boolean failsLike(FuzzCase c, String kind) {
        try {
            Optional<String> p = oracle.problem(c, target.send(c));
            return p.isPresent() && p.get().startsWith(kind);
        } catch (Exception | Error e) {
            return kind.startsWith("the target threw");
        }
    }

    /** How many one-step-smaller trees are made per round (each is a copy of the whole case). */
    static final int CANDIDATES_PER_ROUND = 60;

    /**
     * Up to {@link #CANDIDATES_PER_ROUND} trees one step smaller than root: one field or element removed, or a huge
     * container halved. The bound is checked before every copy: a case with a 40,000-entry list once made 40,000
     * copies of itself here and ran the test JVM out of heap.
     */
    static void shrinkings(JsonNode root, JsonNode node, List<JsonNode> out) {
        if (out.size() >= CANDIDATES_PER_ROUND) {
            return;
        }
        if (node.size() > 8) {
            // a huge container: halve it first, one child at a time would take forever
            JsonNode copy = root.deepCopy();
            JsonNode twin = locate(root, copy, node);
            if (twin instanceof ArrayNode a) {
                while (a.size() > node.size() / 2) {
                    a.remove(a.size() - 1);
                }
            } else if (twin instanceof ObjectNode o) {
                List<String> names = new ArrayList<>();
                o.fieldNames().forEachRemaining(names::add);
                o.remove(names.subList(names.size() / 2, names.size()));
            }
            out.add(copy);
        }
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (out.size() >= CANDIDATES_PER_ROUND) {
                    return;
                }
                out.add(without(root, node, name, -1));
            }
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                shrinkings(root, it.next(), out);
            }
        } else if (node.isArray()) {
            for (int i = node.size() - 1; i >= 0 && out.size() < CANDIDATES_PER_ROUND; i--) {
                out.add(without(root, node, null, i));
            }
            if (node.size() > 1) {
                for (JsonNode child : node) {
                    shrinkings(root, child, out);
                }
            }
        }
    }

    /** A copy of root with one child of {@code parent} removed. */
    private static JsonNode without(JsonNode root, JsonNode parent, String field, int index) {
        JsonNode copy = root.deepCopy();
        JsonNode twin = locate(root, copy, parent);
        if (twin instanceof ObjectNode o) {
            o.remove(field);
        } else if (twin instanceof ArrayNode a && index < a.size()) {
            a.remove(index);
        }
        return copy;
    }

    /** The node of {@code copy} at the place {@code target} has in {@code original} (identity search). */
    private static JsonNode locate(JsonNode original, JsonNode copy, JsonNode target) {
        if (original == target) {
            return copy;
        }
        if (original.isObject()) {
            for (Iterator<String> it = original.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                JsonNode found = locate(original.get(name), copy.get(name), target);
                if (found != null) {
                    return found;
                }
            }
        } else if (original.isArray()) {
            for (int i = 0; i < original.size(); i++) {
                JsonNode found = locate(original.get(i), copy.get(i), target);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
