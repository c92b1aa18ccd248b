package me.loutres.juneau.agent.ndp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.agent.own.Ipv6Claim;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.agent.testing.ManualTimer;
import me.loutres.juneau.ip.IpAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The NDP data plane on a fake wire: what it sends on a gain, what it answers, what it never answers. */
class NdpSpeakerTest {
    static final MacAddress MAC = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final IpAddress CLIENT = IpAddress.parse("2001:db8::1");
    static final IpAddress VIP = IpAddress.parse("2001:db8::100");
    static final IpAddress OTHER = IpAddress.parse("2001:db8::200");
    static final InterfaceInfo ETH0 = new InterfaceInfo("eth0", 2, MAC, List.of(), true, false,
            List.of(new InterfaceInfo.Ipv6Prefix(IpAddress.parse("2001:db8::11"), 64)));
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    final FakeWire wire = new FakeWire();
    final ManualTimer timer = new ManualTimer();
    final AgentMetrics metrics = new AgentMetrics();
    final List<String> conflicts = new ArrayList<>();
    final NdpSpeaker speaker = new NdpSpeaker(wire, AnnounceSchedule.DEFAULT, timer, metrics,
            (claim, iface, other) -> conflicts.add(claim.vipText() + " " + other), CLOCK);

    static NdpSpeaker.Binding bind(IpAddress vip) {
        return new NdpSpeaker.Binding(new Ipv6Claim(vip, "slb-default-web-ipv6", 1, "default", "web"), ETH0);
    }

    @AfterEach
    void close() {
        speaker.close();
        timer.shutdownNow();
    }

    @Test
    void aGainJoinsTheSolicitedNodeGroupAndSendsUnsolicitedAdvertisementsAtOnceThenEvery1100Ms() {
        NdpSpeaker.Applied applied = speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());

        assertThat(applied.gained()).containsExactly(bind(VIP));
        assertThat(wire.groups("eth0")).containsExactly(MacAddress.parse("33:33:ff:00:01:00"));
        assertThat(wire.sentNdp("eth0")).containsExactly(NdpFrame.unsolicited(MAC, VIP));
        assertThat(timer.delays()).containsExactly(Duration.ofMillis(1100), Duration.ofMillis(2200),
                Duration.ofMillis(3300), Duration.ofMillis(4400));
        timer.runAll();
        assertThat(wire.sentNdp("eth0")).hasSize(5).allMatch(f -> f.equals(NdpFrame.unsolicited(MAC, VIP)));
    }

    @Test
    void aSolicitationForTheVipIsAnsweredAndOneForAnotherAddressIsNot() throws Exception {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        int before = wire.sentNdp("eth0").size();

        wire.injectNdp("eth0", NdpFrame.solicitation(CLIENT_MAC, CLIENT, OTHER));
        wire.injectNdp("eth0", NdpFrame.solicitation(CLIENT_MAC, NdpFrame.UNSPECIFIED, OTHER));
        wire.injectNdp("eth0", NdpFrame.solicitation(CLIENT_MAC, CLIENT, VIP));
        NdpFrame answer = awaitNew(before);

        assertThat(answer).isEqualTo(NdpFrame.solicitation(CLIENT_MAC, CLIENT, VIP).advertisementFrom(MAC));
        // one receive thread handles frames in order: the two before it were handled, and not answered
        assertThat(wire.sentNdp("eth0")).hasSize(before + 1);
    }

    @Test
    void aLostVipIsNotAnsweredAndItsGroupIsLeft() throws Exception {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        speaker.apply(Map.of(OTHER, bind(OTHER)), CLOCK.instant());
        assertThat(wire.groups("eth0")).containsExactly(MacAddress.parse("33:33:ff:00:02:00"));
        int before = wire.sentNdp("eth0").size();

        wire.injectNdp("eth0", NdpFrame.solicitation(CLIENT_MAC, CLIENT, VIP));
        wire.injectNdp("eth0", NdpFrame.solicitation(CLIENT_MAC, CLIENT, OTHER));
        assertThat(awaitNew(before).target()).isEqualTo(OTHER);

        speaker.apply(Map.of(), CLOCK.instant());
        assertThat(wire.isOpen("eth0#ndp")).as("nothing left to answer: the socket closes").isFalse();
    }

    @Test
    void anotherStationAdvertisingTheVipIsReported() throws Exception {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        MacAddress intruder = MacAddress.parse("52:54:00:12:34:56");
        wire.injectNdp("eth0", NdpFrame.unsolicited(intruder, VIP));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (conflicts.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(conflicts).containsExactly("2001:db8::100 52:54:00:12:34:56");
    }

    @Test
    void suspendedItAnswersNothingUntilResumed() {
        speaker.apply(Map.of(VIP, bind(VIP)), CLOCK.instant());
        speaker.suspend();
        assertThat(speaker.answering()).isEmpty();
        speaker.resume();
        assertThat(speaker.answering()).containsOnlyKeys(VIP);
    }

    NdpFrame awaitNew(int before) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<NdpFrame> s = wire.sentNdp("eth0");
            if (s.size() > before) {
                return s.get(before);
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no answer; sent " + wire.sentNdp("eth0"));
    }
}
