package me.loutres.juneau.cli.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.cli.lan.LanGuard;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.cli.demo.lan.LanScenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Draining a node without a blackout (README.md, "Draining a node"), on the namespace LAN of {@link ArpFailoverIT}:
 * the owner of the VIP is labelled {@code node.kubernetes.io/exclude-from-external-load-balancers} while its agent
 * still runs. The client's neighbour entry moves to the other node's MAC (its gratuitous ARP) before the old
 * owner's agent is stopped. A client asking for the VIP every 50 ms (arping) meanwhile is answered by the old owner,
 * then by the new one, and never not at all: the hand-over is make before break (the old owner answers until the new
 * one's gratuitous ARP). Bounds are generous: the machine is shared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArpDrainIT {
    static final String VIP = LanScenario.VIP;
    static final Duration ASK_EVERY = Duration.ofMillis(50);
    static final Duration REPLY_WITHIN = Duration.ofMillis(200);

    LanScenario lan;
    LanGuard guard;

    record Ask(long atNanos, String mac) {
    }

    @BeforeAll
    void buildTheLan() throws Exception {
        LanGuard.assumeAvailable("ArpDrainIT", "network namespaces", ArpLab.unavailableReason());
        lan = LanScenario.start();
        guard = LanGuard.of(lan, lan.lab(), "arp-drain-cleanup");
    }

    @AfterAll
    void tearDown() {
        if (guard != null) {
            guard.close();
        }
    }

    /** Only a node whose agent holds its Lease can take the VIP over (docs/phases-and-conditions.md). */
    void bothAgentsHoldTheirLeases() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            long held = lan.admin().leases().inNamespace(JuneauConstants.SYSTEM_NAMESPACE).list().getItems().stream()
                    .filter(l -> l.getMetadata().getName().startsWith(JuneauConstants.AGENT_LEASE_PREFIX)
                            && l.getSpec() != null && l.getSpec().getHolderIdentity() != null
                            && !l.getSpec().getHolderIdentity().isEmpty()).count();
            if (held == 2) {
                Thread.sleep(300); // the controller's informer sees a Lease a moment after it is written
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("both agents hold their Leases" + lan.logs());
    }

    void exclude(String node) {
        lan.admin().nodes().withName(node).edit(n -> {
            Map<String, String> labels = n.getMetadata().getLabels() == null ? new HashMap<>()
                    : new HashMap<>(n.getMetadata().getLabels());
            labels.put(JuneauConstants.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, "true");
            n.getMetadata().setLabels(labels);
            return n;
        });
    }

    @Test
    void theEntryMovesBeforeTheOldAgentStopsAndTheUnansweredGapIsBounded() throws Exception {
        Instant started = Instant.now();
        lan.startAgents(true, List.of());
        String owner = lan.awaitAnnouncedBy(null, started, Duration.ofSeconds(90));
        bothAgentsHoldTheirLeases();
        lan.lab().flushNeighbours(lan.client());
        lan.clientSendsTo(VIP);
        assertThat(lan.awaitClientEntry(lan.mac(owner), System.nanoTime(), Duration.ofSeconds(3)))
                .as("the client resolves %s to %s%s", VIP, owner, lan.logs()).isNotNull();
        Thread.sleep(1200); // past the neighbour lock time: only the agents' frames decide the next move
        String next = LanScenario.other(owner);

        List<Ask> asks = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean asking = new AtomicBoolean(true);
        Thread arping = new Thread(() -> {
            try (ArpProber p = ArpProber.open(lan.lab(), lan.client())) {
                while (asking.get()) {
                    long t = System.nanoTime();
                    asks.add(new Ask(t, p.ask(VIP, REPLY_WITHIN)));
                    long left = t + ASK_EVERY.toNanos() - System.nanoTime();
                    if (left > 0) {
                        Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
                    }
                }
            } catch (Exception e) {
                asks.add(new Ask(System.nanoTime(), "error: " + e));
            }
        }, "arping");
        arping.start();
        Thread.sleep(500);

        long labelled = System.nanoTime();
        exclude(owner);
        Duration moved = lan.awaitClientEntry(lan.mac(next), labelled, Duration.ofSeconds(5));
        boolean oldAgentRan = lan.agent(owner).alive();
        Thread.sleep(1000); // the old agent still runs; the client keeps asking
        lan.agent(owner).stop();
        long stopped = System.nanoTime();
        Thread.sleep(500);
        asking.set(false);
        arping.join(5000);

        assertThat(moved).as("the client's entry moved %s -> %s within 5 s of the label; it has %s%s", owner, next,
                lan.clientEntry(), lan.logs()).isNotNull();
        assertThat(oldAgentRan).as("the old owner's agent still ran when the entry moved").isTrue();
        List<Ask> all = List.copyOf(asks);
        List<Ask> unanswered = all.stream().filter(a -> a.mac() == null || a.mac().startsWith("error")).toList();
        long byOld = all.stream().filter(a -> lan.mac(owner).equals(a.mac())).count();
        long byNew = all.stream().filter(a -> lan.mac(next).equals(a.mac())).count();
        long lastOld = all.stream().filter(a -> lan.mac(owner).equals(a.mac())).mapToLong(Ask::atNanos).max()
                .orElse(labelled);
        long firstNew = all.stream().filter(a -> lan.mac(next).equals(a.mac())).mapToLong(Ask::atNanos).min()
                .orElse(stopped);
        System.out.println("ArpDrainIT: exclusion label -> client entry " + owner + " -> " + next + " in "
                + moved.toMillis() + " ms; " + all.size() + " ARP requests every " + ASK_EVERY.toMillis()
                + " ms: " + byOld + " answered by " + owner + ", " + byNew + " by " + next + ", " + unanswered.size()
                + " unanswered (asked " + unanswered.stream().map(a -> (a.atNanos() - labelled) / 1_000_000).toList()
                + " ms after the label); last answer of " + owner + " to a request sent "
                + (lastOld - labelled) / 1_000_000 + " ms after the label, first of " + next + " "
                + (firstNew - labelled) / 1_000_000 + " ms; the old agent stopped " + (stopped - labelled) / 1_000_000
                + " ms after the label");
        // make before break (README.md, "Draining a node"): the old owner answers until the new one speaks
        assertThat(unanswered).as("ARP requests of the client unanswered during the drain").isEmpty();
        assertThat(byNew).as("the new owner answers").isPositive();
        assertThat(all.stream().filter(a -> a.atNanos() > stopped).map(Ask::mac).distinct().toList())
                .as("after the old agent stopped, only the new owner answers").containsExactly(lan.mac(next));
        assertThat(lastOld).as("the old owner stops answering before its agent stops").isLessThan(stopped);
    }
}
