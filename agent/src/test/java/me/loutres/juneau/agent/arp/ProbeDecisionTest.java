package me.loutres.juneau.agent.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

class ProbeDecisionTest {
    static final MacAddress OURS = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress HOST = MacAddress.parse("52:54:00:12:34:56");
    static final MacAddress NODE_B = MacAddress.parse("02:00:00:00:00:0b");
    static final long VIP = Ipv4.parse("198.18.0.100");
    static final long OTHER = Ipv4.parse("198.18.0.101");
    static final Set<Long> PROBING = Set.of(VIP);

    static ProbeDecision decide(ArpFrame f) {
        return ProbeDecision.decide(f, PROBING, OURS, Set.of(NODE_B));
    }

    @Test
    void aReplyFromTheHostHoldingTheAddressIsInUse() {
        ArpFrame reply = ArpFrame.probe(OURS, VIP).replyFrom(HOST);
        assertThat(reply.senderIp()).isEqualTo(VIP);
        assertThat(decide(reply)).isEqualTo(new ProbeDecision.InUse(VIP, HOST));
    }

    @Test
    void aGratuitousArpOrAnyRequestFromTheAddressIsInUse() {
        assertThat(decide(ArpFrame.gratuitousRequest(HOST, VIP))).isEqualTo(new ProbeDecision.InUse(VIP, HOST));
        assertThat(decide(ArpFrame.gratuitousReply(HOST, VIP))).isEqualTo(new ProbeDecision.InUse(VIP, HOST));
        assertThat(decide(ArpFrame.request(HOST, VIP, Ipv4.parse("198.18.0.1"))))
                .as("the host asks for its gateway from the VIP").isEqualTo(new ProbeDecision.InUse(VIP, HOST));
    }

    @Test
    void anotherStationProbingTheSameAddressAtTheSameTimeIsInUse() {
        assertThat(decide(ArpFrame.probe(HOST, VIP))).isEqualTo(new ProbeDecision.InUse(VIP, HOST));
    }

    @Test
    void ourOwnFramesAClusterNodeAndOtherAddressesAreIgnored() {
        assertThat(decide(ArpFrame.probe(OURS, VIP))).as("our probe, looped back").isEqualTo(ProbeDecision.IGNORE);
        assertThat(decide(ArpFrame.gratuitousRequest(NODE_B, VIP))).as("the previous owner handing over")
                .isEqualTo(ProbeDecision.IGNORE);
        assertThat(decide(ArpFrame.gratuitousRequest(HOST, OTHER))).isEqualTo(ProbeDecision.IGNORE);
        assertThat(decide(ArpFrame.probe(HOST, OTHER))).isEqualTo(ProbeDecision.IGNORE);
        assertThat(decide(ArpFrame.request(HOST, Ipv4.parse("198.18.0.1"), VIP)))
                .as("an ordinary request for the VIP says nothing of who holds it").isEqualTo(ProbeDecision.IGNORE);
        assertThat(ProbeDecision.decide(ArpFrame.gratuitousRequest(HOST, VIP), Set.of(), OURS, Set.of()))
                .as("nothing probed").isEqualTo(ProbeDecision.IGNORE);
    }

    @Test
    void theProbeFrameHasSenderIpZeroAndAsksForTheVip() {
        ArpFrame p = ArpFrame.probe(OURS, VIP);
        assertThat(p.isProbe()).isTrue();
        assertThat(p.senderIp()).isZero();
        assertThat(p.targetIp()).isEqualTo(VIP);
        assertThat(p.targetMac()).isEqualTo(MacAddress.ZERO);
        assertThat(p.ethernetDestination()).isEqualTo(MacAddress.BROADCAST);
        assertThat(ArpFrame.decode(p.encode(), ArpFrame.MIN_FRAME)).contains(p);
        assertThat(ArpFrame.gratuitousRequest(OURS, VIP).isProbe()).isFalse();
    }

    @Test
    void theDefaultScheduleIsThreeProbesOverOneSecond() {
        assertThat(ProbeSchedule.DEFAULT.offsets()).containsExactly(java.time.Duration.ZERO,
                java.time.Duration.ofMillis(333), java.time.Duration.ofMillis(666));
        assertThat(ProbeSchedule.DEFAULT.verdictAfter()).isEqualTo(java.time.Duration.ofSeconds(1));
    }
}
