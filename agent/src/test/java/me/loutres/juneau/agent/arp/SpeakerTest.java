package me.loutres.juneau.agent.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Claim;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.agent.testing.ManualTimer;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpeakerTest {
    static final MacAddress MAC = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final MacAddress PEER = MacAddress.parse("02:00:00:00:00:0b");
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MAC,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);
    static final long VIP = Ipv4.parse("198.18.0.100");
    static final long VIP2 = Ipv4.parse("198.18.0.101");
    static final long CLIENT = Ipv4.parse("198.18.0.1");

    final FakeWire wire = new FakeWire();
    final ManualTimer timer = new ManualTimer();
    final AgentMetrics metrics = new AgentMetrics();
    final List<String> conflicts = new ArrayList<>();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    final Speaker speaker = new Speaker(wire, AnnounceSchedule.DEFAULT, timer, metrics,
            (claim, iface, other) -> conflicts.add(claim.vipText() + " " + other), CLOCK);

    static Speaker.Binding bind(long vip) {
        return new Speaker.Binding(new Claim(vip, "slb-default-" + Ipv4.format(vip), 1, "default", "web"), ETH0);
    }

    @AfterEach
    void close() {
        speaker.close();
        timer.shutdownNow();
    }

    @Test
    void aGainSendsGratuitousArpAtOnceInBothFormsThenFourMoreRounds() {
        Speaker.Applied applied = speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());

        assertThat(applied.gained()).containsExactly(bind(VIP));
        assertThat(wire.sent("eth0")).containsExactly(ArpFrame.gratuitousRequest(MAC, VIP),
                ArpFrame.gratuitousReply(MAC, VIP));
        assertThat(timer.delays()).containsExactly(Duration.ofMillis(1100), Duration.ofMillis(2200),
                Duration.ofMillis(3300), Duration.ofMillis(4400));
        timer.runAll();
        assertThat(wire.sent("eth0")).hasSize(10);
        assertThat(metrics.gratuitousSent()).isEqualTo(10.0);
        assertThat(metrics.takeoverCount()).isEqualTo(1);
        assertThat(metrics.owned()).isEqualTo(1);
    }

    @Test
    void aVipKeptAcrossApplyIsNotAnnouncedAgain() {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        Speaker.Applied again = speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());

        assertThat(again.gained()).containsExactly(bind(VIP2));
        assertThat(wire.sent("eth0")).hasSize(4);
    }

    @Test
    void remainingRoundsAreNotSentOnceTheVipIsLost() {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        speaker.apply(Map.of(), CLOCK.instant());
        timer.runAll();

        assertThat(wire.sent("eth0")).as("no further gratuitous round for a lost VIP").hasSize(2);
        assertThat(speaker.answering()).isEmpty();
        // its socket closes when the hand-over ends (aHandOverEndsByItselfAndThePortClosesWhenNothingIsLeft)
        assertThat(speaker.handingOver()).containsOnlyKeys(VIP);
    }

    @Test
    void answersRequestsForOwnedVipsOnly() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());
        int garps = wire.sent("eth0").size();

        wire.inject("eth0", ArpFrame.request(CLIENT_MAC, CLIENT, Ipv4.parse("198.18.0.102")));
        wire.inject("eth0", ArpFrame.request(CLIENT_MAC, CLIENT, VIP));
        List<ArpFrame> sent = wire.awaitSent("eth0", garps + 1);
        assertThat(sent.subList(garps, sent.size()))
                .containsExactly(ArpFrame.request(CLIENT_MAC, CLIENT, VIP).replyFrom(MAC));
        assertThat(metrics.answeredCount()).isEqualTo(1.0);
    }

    /** Make before break: a lost VIP is answered until its new owner's gratuitous ARP, then never again. */
    @Test
    void aLostVipIsAnsweredUntilItsNewOwnerSpeaks() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());
        speaker.apply(Map.of(VIP2, bind(VIP2)), CLOCK.instant());
        assertThat(speaker.answering()).containsOnlyKeys(VIP2);
        assertThat(speaker.handingOver()).containsOnlyKeys(VIP);
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).as("still answered while handed over").isTrue();

        wire.inject("eth0", ArpFrame.gratuitousRequest(PEER, VIP)); // the new owner takes it
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP2)).as("a barrier: the frame above was read").isTrue();
        assertThat(speaker.handingOver()).isEmpty();
        assertThat(conflicts).as("a hand-over is no conflict").isEmpty();
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).as("never after its new owner spoke").isFalse();
    }

    /** No new owner speaks (none is left, or it is slow): the hand-over ends after HANDOVER, and the port closes. */
    @Test
    void aHandOverEndsByItselfAndThePortClosesWhenNothingIsLeft() throws InterruptedException {
        me.loutres.juneau.testing.ManualClock clock = new me.loutres.juneau.testing.ManualClock(CLOCK.instant());
        Speaker own = new Speaker(wire, AnnounceSchedule.DEFAULT, timer, metrics, (c, i, o) -> { }, clock);
        try {
            own.apply(Map.of(VIP, bind(VIP)), clock.instant());
            own.apply(Map.of(), clock.instant());
            assertThat(wire.isOpen("eth0")).as("kept open to hand the VIP over").isTrue();
            assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).isTrue();

            clock.advance(Speaker.HANDOVER);
            assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).as("the hand-over ran out").isFalse();
            timer.runAll(); // the hand-over's end, as the timer runs it
            assertThat(own.handingOver()).isEmpty();
            assertThat(wire.isOpen("eth0")).isFalse();
        } finally {
            own.close();
        }
    }

    /** Still ours but on no allowed link (spec.arp.interfaces changed): nobody will take it over, so it stops now. */
    @Test
    void aVipStillOwnedButLeftWithoutAnInterfaceStopsAtOnce() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());
        speaker.apply(Map.of(VIP2, bind(VIP2)), java.util.Set.of(VIP, VIP2), CLOCK.instant());
        assertThat(speaker.handingOver()).isEmpty();
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).isFalse();
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP2)).isTrue();
    }

    @Test
    void suspendedOrClosedItHandsNothingOver() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());
        speaker.apply(Map.of(VIP2, bind(VIP2)), CLOCK.instant());
        speaker.suspend();
        assertThat(speaker.handingOver()).isEmpty();
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).as("a paused agent answers nothing").isFalse();
        speaker.resume();
        speaker.close();
        assertThat(speaker.handingOver()).isEmpty();
        assertThat(wire.isOpen("eth0")).isFalse();
    }

    @Test
    void anotherMacClaimingAnOwnedVipIsAConflict() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        int garps = wire.sent("eth0").size();

        wire.inject("eth0", ArpFrame.gratuitousRequest(PEER, VIP));
        wire.inject("eth0", ArpFrame.request(CLIENT_MAC, CLIENT, VIP));
        wire.awaitSent("eth0", garps + 1);

        assertThat(conflicts).containsExactly("198.18.0.100 02:00:00:00:00:0b");
        assertThat(metrics.conflictCount()).isEqualTo(1.0);
    }

    @Test
    void suspendedItAnswersNothingAndResumedItAnswersAgain() throws InterruptedException {
        speaker.apply(Map.of(VIP, bind(VIP), VIP2, bind(VIP2)), CLOCK.instant());
        int garps = wire.sent("eth0").size();
        speaker.suspend();
        wire.inject("eth0", ArpFrame.request(CLIENT_MAC, CLIENT, VIP));
        speaker.resume();
        wire.inject("eth0", ArpFrame.request(CLIENT_MAC, CLIENT, VIP2));

        List<ArpFrame> sent = wire.awaitSent("eth0", garps + 1);
        // the first request may have been read before or after resume(); what matters: while suspended the
        // answering() view is empty, and after resume the VIPs are answered again
        assertThat(sent.get(sent.size() - 1)).isEqualTo(ArpFrame.request(CLIENT_MAC, CLIENT, VIP2).replyFrom(MAC));
        speaker.suspend();
        assertThat(speaker.answering()).isEmpty();
        timer.runAll();
        assertThat(wire.sent("eth0").stream().filter(f -> f.senderIp() == f.targetIp())).hasSize(4);
    }

    @Test
    void aSocketThatCannotBeOpenedIsReportedPerVip() {
        wire.refuse("eth0");

        Speaker.Applied applied = speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());

        assertThat(applied.gained()).isEmpty();
        assertThat(applied.socketErrors()).containsOnlyKeys(VIP);
        assertThat(applied.socketErrors().get(VIP)).contains("NET_RAW");
        assertThat(speaker.answering()).isEmpty();
    }

    @Test
    void aProbeSendsThreeArpProbesAnswersNothingAndEndsFreeWhenNobodyAnswers() throws InterruptedException {
        List<ProbeResult> results = new ArrayList<>();
        assertThat(speaker.probe(bind(VIP).claim(), ETH0, java.util.Set.of(), ProbeSchedule.DEFAULT, results::add))
                .isNull();

        assertThat(wire.probes("eth0")).containsExactly(ArpFrame.probe(MAC, VIP));
        assertThat(timer.delays()).containsExactly(Duration.ofMillis(333), Duration.ofMillis(666),
                Duration.ofSeconds(1));
        assertThat(speaker.probing()).containsEntry(VIP, "eth0");
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP)).as("a probed VIP is not answered yet").isFalse();
        timer.runAll();

        assertThat(wire.probes("eth0")).hasSize(3);
        assertThat(wire.sent("eth0")).as("no gratuitous ARP, no answer").isEmpty();
        assertThat(results).containsExactly(new ProbeResult.Free(VIP));
        assertThat(speaker.probing()).isEmpty();
    }

    @Test
    void aForeignStationAnsweringTheProbeMakesTheAddressInUse() throws InterruptedException {
        List<ProbeResult> results = new ArrayList<>();
        speaker.apply(Map.of(VIP2, bind(VIP2)), CLOCK.instant());
        speaker.probe(bind(VIP).claim(), ETH0, java.util.Set.of(PEER), ProbeSchedule.DEFAULT, results::add);
        MacAddress host = MacAddress.parse("52:54:00:12:34:56");

        wire.inject("eth0", ArpFrame.gratuitousRequest(PEER, VIP)); // a cluster node: no conflict
        wire.inject("eth0", ArpFrame.probe(MAC, VIP).replyFrom(host));
        // one receive thread reads the wire in order: once VIP2's request is answered, the reply above was read
        assertThat(wire.answers("eth0", CLIENT_MAC, CLIENT, VIP2)).isTrue();
        timer.runAll();

        assertThat(results).containsExactly(new ProbeResult.InUse(VIP, host, "eth0"));
        assertThat(conflicts).as("not an owned VIP's conflict").isEmpty();
    }

    @Test
    void aProbeWhoseInterfaceCannotOpenSaysWhy() {
        wire.refuse("eth0");
        assertThat(speaker.probe(bind(VIP).claim(), ETH0, java.util.Set.of(), ProbeSchedule.DEFAULT, r -> {
        })).isNotBlank();
        assertThat(speaker.probing()).isEmpty();
    }

    @Test
    void aProbeCutByAPauseIsInterrupted() {
        List<ProbeResult> results = new ArrayList<>();
        speaker.probe(bind(VIP).claim(), ETH0, java.util.Set.of(), ProbeSchedule.DEFAULT, results::add);
        speaker.suspend();
        timer.runAll();

        assertThat(wire.probes("eth0")).as("no probe while paused").hasSize(1);
        assertThat(results).containsExactly(new ProbeResult.Interrupted(VIP));
    }
}
