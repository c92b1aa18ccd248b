package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.apiserver.ApiRequest;
import me.loutres.juneau.apiserver.LocalApiServer;
import me.loutres.juneau.controller.ControllerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two controllers beside {@code juneau up --no-controller} (issue 25; docs/operations.md, "Leader election"), each a
 * real {@code juneau controller} JVM with the controller's kubeconfig ({@code FILE.controller}) and the fast Lease
 * setting, while 1,000 Services are created: the leader is SIGKILLed, a replacement standby is started and becomes
 * ready, then the new leader is SIGSTOPped for longer than the Lease while the other takes over, and SIGCONTed.
 *
 * <p>What must hold: every Service gets exactly one address, no address is held twice (Service ingress and
 * ServiceLoadBalancer status), an address once given never changes, every Service has its {@code IPAllocated} event,
 * and the SIGCONTed leader — whose term ran out while it was stopped — begins no write of its old term: the API
 * server (run by {@code up}'s own command class in this JVM so that its request hook sees every request with the
 * sender's User-Agent, {@code juneau-controller/IDENTITY}) receives from it, after it was continued, only the
 * writes that had passed their term check when it froze, at once and at most one per writing thread.
 */
class HaControllersIT {
    static final int SERVICES = 1000;
    static final String NS = "default";
    static final Duration LEASE = Duration.ofSeconds(4);
    static final Duration RENEW_DEADLINE = Duration.ofMillis(2500);
    static final Duration RETRY = Duration.ofMillis(500);
    /** Cache sync, takeovers and allocations on a shared 2-core machine whose load may be 10 or more. */
    static final Duration SLOW = Duration.ofSeconds(120);
    /** A controller JVM's start until /readyz: 85 s was seen at load average 31, more than 120 s at 40. */
    static final Duration START = Duration.ofSeconds(240);
    /** The Services created only once the stopped leader runs again: work its term would take up if it still ran. */
    static final int AFTER_CONT = 900;
    /** Service workers of each controller; pools and networks have one each: the threads that write. */
    static final int WORKERS = 4;
    /**
     * A write that had passed its term check when the process froze is sent as soon as the process runs again: well
     * within this (on a loaded machine). Anything later was begun after SIGCONT.
     */
    static final Duration IN_FLIGHT = Duration.ofSeconds(2);

    /** SIGSTOP and SIGCONT have no Java API: kill(1), by pid. */
    static final Path KILL = Files.isExecutable(Path.of("/usr/bin/kill")) ? Path.of("/usr/bin/kill")
            : Path.of("/bin/kill");

    @TempDir
    Path dir;

    private final List<Controller> controllers = new CopyOnWriteArrayList<>();
    private final CountDownLatch stopUp = new CountDownLatch(1);
    private Thread upThread;
    private Thread cleanupOnKill;

    /** One write the API server received: when (monotonic), what, from whom. */
    record Write(long atNanos, String method, String path, String userAgent) {
    }

    private final ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> lastRequestFrom = new ConcurrentHashMap<>();

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (Controller c : controllers) {
            c.kill();
        }
        stopUp.countDown();
        if (upThread != null) {
            upThread.join(30_000);
        }
        if (cleanupOnKill != null) {
            Runtime.getRuntime().removeShutdownHook(cleanupOnKill);
        }
    }

    @Test
    void twoControllersThroughSigkillAndSigstopOfTheLeaderAllocateEveryServiceOnceAndAStaleLeaderWritesNothing()
            throws Exception {
        assertThat(Files.isExecutable(KILL)).as("%s (procps) is needed to send SIGSTOP and SIGCONT to a controller",
                KILL).isTrue();
        // a killed test JVM still kills the controller JVMs it started (by pid)
        cleanupOnKill = new Thread(() -> controllers.forEach(Controller::kill), "ha-controllers-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanupOnKill);
        long t0 = System.nanoTime();
        Path admin = dir.resolve("ha.kubeconfig");
        ByteArrayOutputStream upOutput = new ByteArrayOutputStream();
        UpCommand up = new UpCommand(new PrintStream(upOutput, true, StandardCharsets.UTF_8), stopUp,
                this::recordRequests);
        upThread = new Thread(() -> new picocli.CommandLine(up).execute("--kubeconfig-out", admin.toString(),
                "--no-controller"), "juneau-up-under-test");
        upThread.start();
        until(START, "juneau up --no-controller is up",
                () -> upOutput.toString(StandardCharsets.UTF_8).contains("Press Ctrl-C"));
        Path forController = dir.resolve("ha.kubeconfig.controller");

        try (KubernetesClient k = client(admin)) {
            AddressPool pool = new AddressPool();
            pool.getMetadata().setName("ha-pool");
            // 1,022 usable addresses: room for every Service, so a duplicate is never forced by exhaustion
            pool.setSpec(new AddressPoolSpec("bgp", List.of("10.150.0.0/22")));
            k.resource(pool).create();
            ExternalNetwork net = new ExternalNetwork();
            net.getMetadata().setName("ha-net");
            net.setSpec(new ExternalNetworkSpec("bgp", List.of("ha-pool")));
            k.resource(net).create();

            Watched vips = new Watched();
            k.services().inNamespace(NS).inform(vips.handler(HaControllersIT::ingressOf));
            Watched slbVips = new Watched();
            k.resources(ServiceLoadBalancer.class).inNamespace(NS).inform(slbVips.handler(
                    (ServiceLoadBalancer s) -> s.getStatus() == null ? null : s.getStatus().getVip()));
            LeaseWatch lease = new LeaseWatch(k);
            lease.start();

            Controller c1 = startController("ha-1", forController);
            Controller c2 = startController("ha-2", forController);
            until(START, () -> "both controllers ready and one leading; their logs:\n" + c1.logTail() + "\n"
                    + c2.logTail(), () -> c1.ready() && c2.ready() && lease.holder() != null);

            // the Services come while the controllers change: the creator holds back twice, so that work is
            // still arriving after the SIGKILL and while the leader is stopped
            CountDownLatch killed = new CountDownLatch(1);
            CountDownLatch stopping = new CountDownLatch(1);
            CountDownLatch continued = new CountDownLatch(1);
            AtomicInteger created = new AtomicInteger();
            AtomicReference<Throwable> creatorFailed = new AtomicReference<>();
            Thread creator = new Thread(() -> {
                try {
                    for (int i = 0; i < SERVICES; i++) {
                        if (i == 400) {
                            killed.await();
                        } else if (i == 700) {
                            stopping.await();
                        } else if (i == AFTER_CONT) {
                            // work a leader whose term still ran would take up: the old leader sees it come
                            continued.await();
                        }
                        k.resource(service("svc-" + i)).create();
                        created.incrementAndGet();
                        if (i < 700) {
                            Thread.sleep(10);
                        }
                    }
                } catch (Throwable t) {
                    creatorFailed.set(t);
                }
            }, "ha-service-creator");
            creator.setDaemon(true);
            creator.start();

            // 1. SIGKILL the leader mid-allocation
            until(SLOW, "100 Services allocated", () -> vips.size() >= 100);
            Controller first = byIdentity(lease.holder());
            long killAt = System.nanoTime();
            first.signal("KILL");
            killed.countDown();
            long afterKill = lease.awaitHolderOtherThan(first.identity, killAt, SLOW);
            double killTakeover = seconds(afterKill - killAt);
            double killResume = seconds(vips.firstSeenAfter(afterKill, SLOW) - killAt);

            // 2. a replacement standby, ready before the next blow
            long replacedAt = System.nanoTime();
            Controller third = startController("ha-3", forController);
            until(START, () -> "the replacement standby is ready; its log:\n" + third.logTail(), third::ready);
            double replacementReady = seconds(System.nanoTime() - replacedAt);
            // the leader is busy when it stops: a burst of new Services has just reached it
            int before = created.get();
            stopping.countDown();
            until(SLOW, "new Services arrive at the leader", () -> created.get() >= Math.min(SERVICES, before + 20));

            // 3. SIGSTOP the leader for longer than the Lease; the standby takes over; SIGCONT. The leader is
            // whoever holds the Lease now (on a loaded machine a short lease may have changed hands meanwhile)
            Controller stopped = byIdentity(lease.holder());
            Controller standby = stopped == third ? byIdentity(lease.holderAt(afterKill)) : third;
            long stopAt = System.nanoTime();
            stopped.signal("STOP");
            long afterStop = lease.awaitHolderOtherThan(stopped.identity, stopAt, SLOW);
            double stopTakeover = seconds(afterStop - stopAt);
            assertThat(lease.holderAt(afterStop)).as("the standby took over").isEqualTo(standby.identity);
            while (System.nanoTime() - stopAt < LEASE.toNanos() + Duration.ofSeconds(1).toNanos()) {
                Thread.sleep(100);
            }
            long contAt = System.nanoTime();
            stopped.signal("CONT");
            continued.countDown();
            double stopResume = seconds(vips.firstSeenAfter(afterStop, SLOW) - stopAt);

            creator.join(SLOW.toMillis());
            assertThat(creatorFailed.get()).as("creating the Services").isNull();
            assertThat(created.get()).isEqualTo(SERVICES);
            until(SLOW, () -> "every Service has an address (" + vips.size() + " of " + SERVICES + ")",
                    () -> vips.size() == SERVICES && slbVips.size() == SERVICES);
            until(SLOW, "every Service's IPAllocated event", () -> allocatedEvents(k).size() == SERVICES);
            // the continued leader talks to the API server again (its Lease reads, its watches): the check of its
            // writes below is not vacuous
            until(Duration.ofSeconds(60), "the continued leader talks to the API server again",
                    () -> lastRequestFrom.getOrDefault(stopped.userAgent(), Long.MIN_VALUE) - contAt > 0);
            Thread.sleep(4 * RETRY.toMillis());

            // every Service: one address, its own, never changed; the ServiceLoadBalancers agree
            Map<String, String> ingress = new HashMap<>();
            for (Service s : k.services().inNamespace(NS).list().getItems()) {
                List<LoadBalancerIngress> in = s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                        ? List.of() : s.getStatus().getLoadBalancer().getIngress();
                assertThat(in).as("ingress of %s", s.getMetadata().getName()).hasSize(1);
                ingress.put(s.getMetadata().getName(), in.get(0).getIp());
            }
            assertThat(ingress).hasSize(SERVICES);
            assertThat(new HashSet<>(ingress.values())).as("no address held by two Services").hasSize(SERVICES);
            Map<String, String> slb = k.resources(ServiceLoadBalancer.class).inNamespace(NS).list().getItems().stream()
                    .collect(Collectors.toMap(s -> s.getMetadata().getName(), s -> s.getStatus().getVip()));
            assertThat(slb).as("each ServiceLoadBalancer's status.vip is its Service's ingress").isEqualTo(ingress);
            assertThat(vips.changes).as("a Service's address changed after it was given").isEmpty();
            assertThat(slbVips.changes).as("a ServiceLoadBalancer's status.vip changed after it was given").isEmpty();
            assertThat(vips.firstValues()).as("the addresses as first given are the final ones").isEqualTo(ingress);
            assertThat(allocatedEvents(k)).as("every Service has its IPAllocated event").hasSize(SERVICES)
                    .containsAll(ingress.keySet());

            // the stopped leader's term ran out while it was stopped: from SIGCONT on it starts no write. What can
            // still arrive is a write that had passed its term check when the process froze (at most one per
            // writing thread, sent as soon as it runs again): no check inside a process can stop a pause between
            // the check and the bytes leaving it (docs/operations.md, "Leader election").
            // Lease writes are its campaign (refused, or a new term's acquire, after which it may write again)
            long newTermAt = lease.termStartedBy(stopped.identity, contAt, writes);
            List<Write> late = writes.stream().filter(w -> w.userAgent.equals(stopped.userAgent())
                    && w.atNanos - contAt > 0 && w.atNanos - newTermAt < 0 && !w.path.contains("/leases/")).toList();
            String lateSaid = late.stream().map(w -> String.format("%s %s at +%d ms", w.method, w.path,
                    (w.atNanos - contAt) / 1_000_000)).collect(Collectors.joining("\n"));
            List<Write> started = late.stream().filter(w -> w.atNanos - contAt > IN_FLIGHT.toNanos()).toList();
            assertThat(started).as("writes of the SIGSTOPped leader's old term begun after SIGCONT (all late "
                    + "writes:%n%s); its log:%n%s", lateSaid, stopped.logTail()).isEmpty();
            assertThat(late).as("writes in flight when the leader was stopped: one per writing thread at most:%n%s",
                    lateSaid).hasSizeLessThanOrEqualTo(WORKERS + 2);
            long ledWrites = writes.stream().filter(w -> w.userAgent.equals(stopped.userAgent())
                    && !w.path.contains("/leases/") && w.atNanos - stopAt < 0).count();
            assertThat(ledWrites).as("the stopped leader did write while it led (it was a real leader)").isPositive();

            String load = Files.readString(Path.of("/proc/loadavg")).trim();
            System.out.printf("HaControllersIT: the replacement standby ready %.1f s after its start; %d Services,"
                    + " every event and the checks done %.1f s after the test started%n", replacementReady, SERVICES,
                    seconds(System.nanoTime() - t0));
            System.out.printf("HaControllersIT: %d Services, Lease %s/%s/%s; SIGKILL: Lease taken over after %.1f s,"
                    + " allocations resumed after %.1f s; SIGSTOP: taken over after %.1f s, resumed after %.1f s;"
                    + " writes of the old term after SIGCONT: %d begun, %d in flight at the stop (%s); load average"
                    + " %s%n", SERVICES, LEASE.toMillis() / 1000.0, RENEW_DEADLINE.toMillis() / 1000.0,
                    RETRY.toMillis() / 1000.0, killTakeover, killResume, stopTakeover, stopResume, started.size(),
                    late.size(), lateSaid.replace('\n', ';'), load);
            lease.stop();
        }
    }

    // --- the API server's view: every write with its sender ---

    private void recordRequests(LocalApiServer api) {
        api.onRequest((ApiRequest r) -> {
            long now = System.nanoTime();
            String ua = r.userAgent() == null ? "" : r.userAgent();
            lastRequestFrom.put(ua, now);
            if (!"GET".equals(r.method()) && !"HEAD".equals(r.method()) && !"OPTIONS".equals(r.method())) {
                writes.add(new Write(now, r.method(), r.path(), ua));
            }
            return Optional.empty();
        });
    }

    // --- controllers: real JVMs, stopped by pid ---

    private Controller startController(String identity, Path kubeconfig) throws IOException {
        Path log = dir.resolve(identity + ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // two controllers and the test JVM share two cores: a small heap, C1 only
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // the command line's own logging (INFO, one line per state change), not a test classpath's
                "-Dlogback.configurationFile=logback.xml",
                "-cp", System.getProperty("java.class.path"), "me.loutres.juneau.cli.Juneau", "controller",
                "--kubeconfig", kubeconfig.toString(), "--identity", identity, "--metrics-port", "0", "--workers", Integer.toString(WORKERS),
                "--lease-duration", "4s", "--renew-deadline", "2.5s", "--retry-period", "0.5s"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Controller c = new Controller(identity, p, log);
        controllers.add(c);
        return c;
    }

    private Controller byIdentity(String identity) {
        return controllers.stream().filter(c -> c.identity.equals(identity)).findFirst()
                .orElseThrow(() -> new AssertionError("no controller named " + identity + " holds the Lease"));
    }

    static final class Controller {
        private static final Pattern METRICS_PORT = Pattern.compile("metrics on port (\\d+)");
        private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        final String identity;
        final Process process;
        final Path log;

        Controller(String identity, Process process, Path log) {
            this.identity = identity;
            this.process = process;
            this.log = log;
        }

        String userAgent() {
            return "juneau-controller/" + identity;
        }

        /** /readyz answers 200: its caches hold their first lists (a standby's too). */
        boolean ready() {
            assertThat(process.isAlive()).as("controller %s exited; its log:%n%s", identity, logTail()).isTrue();
            Matcher m = METRICS_PORT.matcher(logText());
            if (!m.find()) {
                return false;
            }
            try {
                HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.group(1)
                        + "/readyz")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                return r.statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        void signal(String name) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder(KILL.toString(), "-" + name, Long.toString(process.pid())).inheritIO().start();
            assertThat(kill.waitFor()).as("kill -%s %d", name, process.pid()).isZero();
        }

        /** SIGKILL by pid (a stopped process dies too) and reap it. */
        void kill() {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String logText() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }

        String logTail() {
            List<String> lines = logText().lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        }
    }

    // --- what the test watches: addresses as they are given, the Lease's holder ---

    /** The first value each object showed, when it was first seen, and any later change of it. */
    static final class Watched {
        private final Map<String, String> first = new ConcurrentHashMap<>();
        private final Map<String, Long> firstSeenAt = new ConcurrentHashMap<>();
        final List<String> changes = new CopyOnWriteArrayList<>();

        <T extends io.fabric8.kubernetes.api.model.HasMetadata> ResourceEventHandler<T> handler(
                Function<T, String> value) {
            return new ResourceEventHandler<>() {
                @Override
                public void onAdd(T obj) {
                    seen(obj.getMetadata().getName(), value.apply(obj));
                }

                @Override
                public void onUpdate(T oldObj, T newObj) {
                    seen(newObj.getMetadata().getName(), value.apply(newObj));
                }

                @Override
                public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                    changes.add(obj.getMetadata().getName() + " deleted");
                }
            };
        }

        private void seen(String name, String v) {
            String had = first.get(name);
            if (had == null) {
                if (v != null) {
                    first.put(name, v);
                    firstSeenAt.put(name, System.nanoTime());
                }
            } else if (!had.equals(v)) {
                changes.add(name + ": " + had + " -> " + v);
            }
        }

        int size() {
            return first.size();
        }

        Map<String, String> firstValues() {
            return new HashMap<>(first);
        }

        /** When the first address given after {@code since} was seen. */
        long firstSeenAfter(long since, Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + max.toNanos();
            while (System.nanoTime() - deadline < 0) {
                Optional<Long> at = firstSeenAt.values().stream().filter(t -> t - since > 0)
                        .min((a, b) -> Long.compare(a - since, b - since));
                if (at.isPresent()) {
                    return at.get();
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no address given within " + max + " after the new leader took over");
        }
    }

    /** The controllers' Lease, read every 50 ms: who held it from when. */
    static final class LeaseWatch {
        record Holding(long atNanos, String holder) {
        }

        private final KubernetesClient k;
        private final List<Holding> history = new CopyOnWriteArrayList<>();
        private volatile boolean stopped;
        private Thread poller;

        LeaseWatch(KubernetesClient k) {
            this.k = k;
        }

        void start() {
            poller = new Thread(() -> {
                while (!stopped) {
                    try {
                        Lease l = k.leases().inNamespace(JuneauConstants.SYSTEM_NAMESPACE).withName(ControllerOptions.DEFAULT_LEASE_NAME)
                                .get();
                        String h = l == null || l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
                        if (history.isEmpty() || !java.util.Objects.equals(history.get(history.size() - 1).holder, h)) {
                            history.add(new Holding(System.nanoTime(), h));
                        }
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        // the next read tells
                    }
                }
            }, "ha-lease-poller");
            poller.setDaemon(true);
            poller.start();
        }

        void stop() {
            stopped = true;
            poller.interrupt();
        }

        String holder() {
            return history.isEmpty() ? null : history.get(history.size() - 1).holder;
        }

        String holderAt(long at) {
            String h = null;
            for (Holding x : history) {
                if (x.atNanos - at <= 0) {
                    h = x.holder;
                }
            }
            return h;
        }

        /** When the Lease was first seen held by another replica than {@code old} after {@code since}. */
        long awaitHolderOtherThan(String old, long since, Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + max.toNanos();
            while (System.nanoTime() - deadline < 0) {
                for (Holding x : history) {
                    if (x.atNanos - since > 0 && x.holder != null && !x.holder.isEmpty() && !x.holder.equals(old)) {
                        return x.atNanos;
                    }
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no replica took the Lease from " + old + " within " + max + ": " + history);
        }

        /**
         * When {@code identity} started a new term after {@code since}: its last Lease write before the poller saw
         * it holding the Lease again (the write that won it); far in the future when it never did.
         */
        long termStartedBy(String identity, long since, java.util.Collection<Write> writes) {
            String ua = "juneau-controller/" + identity;
            for (Holding x : history) {
                if (x.atNanos - since > 0 && identity.equals(x.holder)) {
                    return writes.stream().filter(w -> w.userAgent.equals(ua) && w.path.contains("/leases/")
                            && w.atNanos - since > 0 && w.atNanos - x.atNanos < 0).mapToLong(Write::atNanos)
                            .reduce((a, b) -> b - a > 0 ? b : a).orElse(x.atNanos);
                }
            }
            return System.nanoTime() + Duration.ofDays(1).toNanos();
        }
    }

    // --- helpers ---

    private static Set<String> allocatedEvents(KubernetesClient k) {
        return k.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> JuneauConstants.EVENT_IP_ALLOCATED.equals(e.getReason()))
                .map((Event e) -> e.getInvolvedObject().getName()).collect(Collectors.toSet());
    }

    private static String ingressOf(Service s) {
        if (s.getStatus() == null || s.getStatus().getLoadBalancer() == null
                || s.getStatus().getLoadBalancer().getIngress() == null
                || s.getStatus().getLoadBalancer().getIngress().isEmpty()) {
            return null;
        }
        List<LoadBalancerIngress> in = s.getStatus().getLoadBalancer().getIngress();
        return in.size() == 1 ? in.get(0).getIp() : in.stream().map(LoadBalancerIngress::getIp)
                .collect(Collectors.joining(","));
    }

    private static Service service(String name) {
        return new ServiceBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToAnnotations(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "ha-net").endMetadata()
                .withNewSpec().withType("LoadBalancer").withLoadBalancerClass(JuneauConstants.LOAD_BALANCER_CLASS)
                .addNewPort().withPort(80).endPort().endSpec().build();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static void until(Duration max, String what, java.util.function.BooleanSupplier done)
            throws InterruptedException {
        until(max, () -> what, done);
    }

    /** {@code what} is asked only when the time is up (a log tail, say). */
    private static void until(Duration max, java.util.function.Supplier<String> what,
            java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still not true after " + max + ": " + what.get());
            }
            Thread.sleep(50);
        }
    }

    private static KubernetesClient client(Path kubeconfig) throws IOException {
        return new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8))).build();
    }
}
