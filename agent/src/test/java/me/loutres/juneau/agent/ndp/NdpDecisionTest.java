package me.loutres.juneau.agent.ndp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;
import org.junit.jupiter.api.Test;

/** What the responder does with each kind of NS and NA (docs/ndp.md). */
class NdpDecisionTest {
    static final MacAddress NODE = NdpFrameTest.NODE;
    static final MacAddress CLIENT = NdpFrameTest.CLIENT;
    static final MacAddress OTHER = MacAddress.parse("52:54:00:12:34:56");
    static final IpAddress VIP = NdpFrameTest.VIP;
    static final IpAddress NOT_OURS = IpAddress.parse("2001:db8::200");
    static final Set<IpAddress> OWNED = Set.of(VIP);

    @Test
    void aSolicitationForAnOwnedVipIsAnsweredWithOurMac() {
        NdpDecision d = NdpDecision.decide(NdpFrame.solicitation(CLIENT, NdpFrameTest.CLIENT_IP, VIP), OWNED, NODE);
        assertThat(d).isInstanceOf(NdpDecision.Answer.class);
        NdpFrame reply = ((NdpDecision.Answer) d).reply();
        assertThat(reply.linkLayer()).isEqualTo(NODE);
        assertThat(reply.flags()).isEqualTo(NdpFrame.SOLICITED | NdpFrame.OVERRIDE);
        assertThat(reply.ethernetDestination()).isEqualTo(CLIENT);
    }

    @Test
    void aVipNotOwnedIsNeverAnswered() {
        assertThat(NdpDecision.decide(NdpFrame.solicitation(CLIENT, NdpFrameTest.CLIENT_IP, NOT_OURS), OWNED, NODE))
                .isEqualTo(NdpDecision.IGNORE);
        assertThat(NdpDecision.decide(NdpFrame.solicitation(CLIENT, NdpFrameTest.CLIENT_IP, VIP), Set.of(), NODE))
                .as("after losing it").isEqualTo(NdpDecision.IGNORE);
    }

    @Test
    void aDuplicateAddressProbeForAnotherHostsAddressIsNeverAnswered() {
        assertThat(NdpDecision.decide(NdpFrame.solicitation(CLIENT, NdpFrame.UNSPECIFIED, NOT_OURS), OWNED, NODE))
                .isEqualTo(NdpDecision.IGNORE);
    }

    @Test
    void aDuplicateAddressProbeForAnOwnedVipIsDefendedToAllNodes() {
        NdpDecision d = NdpDecision.decide(NdpFrame.solicitation(CLIENT, NdpFrame.UNSPECIFIED, VIP), OWNED, NODE);
        assertThat(d).isInstanceOf(NdpDecision.Answer.class);
        assertThat(((NdpDecision.Answer) d).reply().destination()).isEqualTo(NdpFrame.ALL_NODES);
    }

    @Test
    void anotherStationAdvertisingAnOwnedVipIsAConflict() {
        assertThat(NdpDecision.decide(NdpFrame.unsolicited(OTHER, VIP), OWNED, NODE))
                .isEqualTo(new NdpDecision.Conflict(VIP, OTHER));
        assertThat(NdpDecision.decide(NdpFrame.unsolicited(OTHER, NOT_OURS), OWNED, NODE))
                .isEqualTo(NdpDecision.IGNORE);
    }

    @Test
    void ourOwnFramesAreIgnored() {
        assertThat(NdpDecision.decide(NdpFrame.unsolicited(NODE, VIP), OWNED, NODE)).isEqualTo(NdpDecision.IGNORE);
        assertThat(NdpDecision.decide(NdpFrame.solicitation(NODE, NdpFrame.UNSPECIFIED, VIP), OWNED, NODE))
                .isEqualTo(NdpDecision.IGNORE);
    }
}
