package me.loutres.juneau.cli.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import me.loutres.juneau.cli.lan.LanGuard;
import me.loutres.juneau.cli.demo.lan.AgentProcess;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.ArpProber;
import me.loutres.juneau.cli.demo.lan.LanScenario;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The classic layer-2 failover picture, on this machine (issue 10, item 6): a LAN of network namespaces with a
 * client whose neighbour cache behaves like a router's and two nodes, the real node agents (one JVM each, inside
 * its node's namespace), the real controller and webhook against the local API server. What is asserted is what
 * the client's kernel believes ({@code ip neigh}) and what answers on the wire (arping from the client).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArpFailoverIT {
    static final String VIP = LanScenario.VIP;
    /** The agent's Lease duration while it owns a VIP (README.md, "How a VIP answers"). */
    static final Duration LEASE_WHILE_OWNING = Duration.ofSeconds(3);

    LanScenario lan;
    LanGuard guard;

    @BeforeAll
    void buildTheLan() throws Exception {
        LanGuard.assumeAvailable("ArpFailoverIT", "network namespaces", ArpLab.unavailableReason());
        lan = LanScenario.start();
        guard = LanGuard.of(lan, lan.lab(), "arp-lan-cleanup");
    }

    @AfterAll
    void tearDown() {
        if (guard != null) {
            guard.close();
        }
    }

    /**
     * Each case starts its own agents: whatever a case left (a failed assertion included), the next one starts
     * from two stopped agents, links up and both backends ready.
     */
    @AfterEach
    void stopThisCasesAgents() throws Exception {
        if (lan == null) {
            return;
        }
        lan.stopAgents();
        for (String node : List.of("node-a", "node-b")) {
            lan.lab().linkUp(lan.node(node));
            lan.setReady(node, true);
        }
    }

    /** Starts the agents and waits until one answers; the client then resolves the VIP from scratch. */
    String agentsUpAndClientResolved(boolean gratuitousArp) throws Exception {
        Instant started = Instant.now();
        lan.startAgents(gratuitousArp, List.of());
        controllerLabelsAdvertisements();
        String owner = lan.awaitAnnouncedBy(null, started, Duration.ofSeconds(40));
        bothAgentsHoldTheirLeases();
        lan.lab().flushNeighbours(lan.client());
        lan.clientSendsTo(VIP);
        Duration resolved = lan.awaitClientEntry(lan.mac(owner), System.nanoTime(), Duration.ofSeconds(3));
        assertThat(resolved).as("the client resolves %s to %s's MAC %s; it has %s%s", VIP, owner, lan.mac(owner),
                lan.clientEntry(), lan.logs()).isNotNull();
        return owner;
    }

    /**
     * Only a node whose agent holds its Lease can take a VIP over (docs/phases-and-conditions.md): a failover case
     * starts once both agents hold theirs, or the move would wait for the other agent's JVM instead of the
     * controller.
     */
    void bothAgentsHoldTheirLeases() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> holders = List.of();
        while (System.nanoTime() < deadline) {
            holders = lan.admin().leases().inNamespace(me.loutres.juneau.api.JuneauConstants.SYSTEM_NAMESPACE).list()
                    .getItems().stream().filter(l -> l.getSpec() != null && l.getSpec().getHolderIdentity() != null
                            && !l.getSpec().getHolderIdentity().isEmpty()
                            && l.getMetadata().getName().startsWith(me.loutres.juneau.api.JuneauConstants.AGENT_LEASE_PREFIX))
                    .map(l -> l.getMetadata().getName()).sorted().toList();
            if (holders.size() == 2) {
                // the controller's informer sees a Lease a moment after it is written
                Thread.sleep(300);
                return;
            }
            Thread.sleep(50);
        }
        assertThat(holders).as("both agents hold their Leases%s", lan.logs()).hasSize(2);
    }

    /**
     * docs/api-reference.md: the controller keeps the label {@code juneau.loutres.me/node} equal to spec.nodeName; the agents
     * select their advertisements by it. A controller without that (before issue 13's planner) cannot be tested here.
     */
    void controllerLabelsAdvertisements() throws InterruptedException {
        // only a node whose agent holds its Lease is elected: the wait includes the agents' JVMs starting
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (lan.advertisement() == null && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        var a = lan.advertisement();
        assertThat(a).as("the controller elects a node for %s once an agent holds its Lease; Leases: %s%s", VIP,
                lan.admin().leases().inNamespace(me.loutres.juneau.api.JuneauConstants.SYSTEM_NAMESPACE).list()
                        .getItems().stream().map(l -> l.getMetadata().getName() + "=" + l.getSpec().getHolderIdentity()
                                + "@" + l.getSpec().getRenewTime()).toList(), lan.logs())
                .isNotNull();
        String label = a.getMetadata().getLabels() == null ? null
                : a.getMetadata().getLabels().get(me.loutres.juneau.api.JuneauConstants.LABEL_NODE);
        if (label == null) {
            System.err.println("\n*** ArpFailoverIT SKIPPED: the controller does not label ARPAdvertisements with "
                    + me.loutres.juneau.api.JuneauConstants.LABEL_NODE + " (docs/api-reference.md), so no agent can see them ***\n");
        }
        Assumptions.assumeTrue(label != null, "the controller does not write the node label of docs/api-reference.md yet");
    }

    @Test
    @Order(1)
    void withoutGratuitousArpTheClientKeepsTheOldMacForFifteenSeconds() throws Exception {
        String owner = agentsUpAndClientResolved(false);

        Instant lost = Instant.now();
        lan.setReady(owner, false);
        String next = LanScenario.other(owner);
        lan.awaitAnnouncedBy(next, lost, Duration.ofSeconds(10));
        long moved = System.nanoTime();
        while (System.nanoTime() - moved < Duration.ofSeconds(15).toNanos()) {
            assertThat(lan.clientEntry()).as("the client's entry, gratuitous ARP off").isEqualTo(lan.mac(owner));
            Thread.sleep(250);
        }
        // the control is honest: the new owner does answer when asked, and the old one no longer does
        try (ArpProber arping = ArpProber.open(lan.lab(), lan.client())) {
            assertThat(arping.probe(VIP, 3, Duration.ofMillis(300))).containsExactly(lan.mac(next));
        }
    }

    @Test
    @Order(2)
    void theEntryMovesWithinASecondOfTheBackendLossAndOnlyTheNewOwnerAnswers() throws Exception {
        String owner = agentsUpAndClientResolved(true);
        Thread.sleep(1200); // past the neighbour lock time: only the agents' frames decide the next move

        String next = LanScenario.other(owner);
        long t0 = System.nanoTime();
        lan.setReady(owner, false);
        Duration backendLoss = lan.awaitClientEntry(lan.mac(next), t0, Duration.ofSeconds(1));
        assertThat(backendLoss).as("entry moved %s -> %s within 1 s of the backend loss; client has %s%s", owner,
                next, lan.clientEntry(), lan.logs()).isNotNull();
        System.out.println("ArpFailoverIT: backend loss: client entry " + owner + " -> " + next + " in "
                + backendLoss.toMillis() + " ms");
        lan.setReady(owner, true);
        Thread.sleep(1000); // sticky: the VIP stays on the new owner, which still has its backend

        assertThat(lan.elected()).isEqualTo(next);
        try (ArpProber arping = ArpProber.open(lan.lab(), lan.client())) {
            assertThat(arping.probe(VIP, 5, Duration.ofMillis(250))).as("MACs answering ARP for %s", VIP)
                    .containsExactly(lan.mac(next));
        }
    }

    @Test
    @Order(3)
    void aFrozenCutOffOwnerLosesTheVipWithinItsLeaseAndStaysSilentWhenItComesBack() throws Exception {
        String liveness = "me.loutres.juneau.plan.NodeLiveness";
        boolean controllerJudgesAgentLeases;
        try {
            Class.forName(liveness);
            controllerJudgesAgentLeases = true;
        } catch (ClassNotFoundException e) {
            controllerJudgesAgentLeases = false;
            System.err.println("\n*** ArpFailoverIT node-loss case SKIPPED: this build's controller does not judge"
                    + " agent Leases yet (docs/phases-and-conditions.md, " + liveness + " absent) ***\n");
        }
        Assumptions.assumeTrue(controllerJudgesAgentLeases, "the controller side of docs/phases-and-conditions.md is not in this build");
        String owner = agentsUpAndClientResolved(true);
        Thread.sleep(1200);

        String next = LanScenario.other(owner);
        AgentProcess frozen = lan.agent(owner);
        long t1 = System.nanoTime();
        frozen.freeze();
        lan.lab().linkDown(lan.node(owner));
        Duration nodeLoss = lan.awaitClientEntry(lan.mac(next), t1, LEASE_WHILE_OWNING.plusSeconds(1));
        assertThat(nodeLoss).as("entry moved %s -> %s within the Lease duration + 1 s of the node loss; client has"
                + " %s, advertisement %s%s", owner, next, lan.clientEntry(), lan.advertisement(), lan.logs())
                .isNotNull();
        System.out.println("ArpFailoverIT: node loss: client entry " + owner + " -> " + next + " in "
                + nodeLoss.toMillis() + " ms");
        assertThat(lan.elected()).isEqualTo(next);

        // the frozen node comes back: it notices its pause and stays silent; only the new owner answers
        frozen.thaw();
        lan.lab().linkUp(lan.node(owner));
        Thread.sleep(1500);
        try (ArpProber arping = ArpProber.open(lan.lab(), lan.client())) {
            assertThat(arping.probe(VIP, 5, Duration.ofMillis(250))).as("MACs answering ARP for %s", VIP)
                    .containsExactly(lan.mac(next));
        }
    }
}
