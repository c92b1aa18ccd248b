package me.loutres.juneau.agent.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the responder does with each kind of frame, for the VIPs a node owns. */
class ArpDecisionTest {
    static final MacAddress US = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress PEER = MacAddress.parse("02:00:00:00:00:0b");
    static final MacAddress CLIENT_MAC = MacAddress.parse("02:00:00:00:00:01");
    static final long VIP = Ipv4.parse("198.18.0.100");
    static final long OTHER_VIP = Ipv4.parse("198.18.0.101");
    static final long CLIENT = Ipv4.parse("198.18.0.1");
    static final Set<Long> OWNED = Set.of(VIP);

    static Stream<Arguments> cases() {
        ArpFrame ask = ArpFrame.request(CLIENT_MAC, CLIENT, VIP);
        return Stream.of(
                Arguments.of("request for an owned VIP: answer", ask, OWNED,
                        new ArpDecision.Answer(VIP, ask.replyFrom(US))),
                Arguments.of("request for a VIP we do not own: silence", ArpFrame.request(CLIENT_MAC, CLIENT, OTHER_VIP),
                        OWNED, ArpDecision.IGNORE),
                Arguments.of("request when nothing is owned: silence", ask, Set.of(), ArpDecision.IGNORE),
                Arguments.of("duplicate-address probe (spa 0) for an owned VIP: defend it",
                        ArpFrame.request(CLIENT_MAC, 0, VIP), OWNED,
                        new ArpDecision.Answer(VIP, ArpFrame.request(CLIENT_MAC, 0, VIP).replyFrom(US))),
                Arguments.of("another MAC replies for our VIP: conflict", ask.replyFrom(PEER), OWNED,
                        new ArpDecision.Conflict(VIP, PEER)),
                Arguments.of("another MAC sends gratuitous ARP for our VIP: conflict",
                        ArpFrame.gratuitousRequest(PEER, VIP), OWNED, new ArpDecision.Conflict(VIP, PEER)),
                Arguments.of("another MAC's gratuitous reply for our VIP: conflict",
                        ArpFrame.gratuitousReply(PEER, VIP), OWNED, new ArpDecision.Conflict(VIP, PEER)),
                Arguments.of("another MAC's gratuitous ARP for a VIP we do not own: silence",
                        ArpFrame.gratuitousRequest(PEER, OTHER_VIP), OWNED, ArpDecision.IGNORE),
                Arguments.of("our own gratuitous ARP seen again: silence", ArpFrame.gratuitousRequest(US, VIP), OWNED,
                        ArpDecision.IGNORE),
                Arguments.of("our own reply seen again: silence", ask.replyFrom(US), OWNED, ArpDecision.IGNORE),
                Arguments.of("a reply to somebody else for another address: silence",
                        ArpFrame.request(PEER, OTHER_VIP, CLIENT).replyFrom(CLIENT_MAC), OWNED, ArpDecision.IGNORE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, ArpFrame frame, Set<Long> owned, ArpDecision expected) {
        assertThat(ArpDecision.decide(frame, owned, US)).isEqualTo(expected);
    }

    /** A VIP being handed over (lost, its new owner not heard yet): answered, and given up when the new owner speaks. */
    static Stream<Arguments> handOverCases() {
        ArpFrame ask = ArpFrame.request(CLIENT_MAC, CLIENT, VIP);
        return Stream.of(
                Arguments.of("request for a VIP handed over: still answered", ask,
                        new ArpDecision.Answer(VIP, ask.replyFrom(US))),
                Arguments.of("the new owner's gratuitous ARP: handed over, no conflict",
                        ArpFrame.gratuitousRequest(PEER, VIP), new ArpDecision.HandedOver(VIP)),
                Arguments.of("the new owner's reply: handed over", ask.replyFrom(PEER), new ArpDecision.HandedOver(VIP)),
                Arguments.of("our own gratuitous ARP seen again: silence", ArpFrame.gratuitousRequest(US, VIP),
                        ArpDecision.IGNORE),
                Arguments.of("request for another VIP: silence", ArpFrame.request(CLIENT_MAC, CLIENT, OTHER_VIP),
                        ArpDecision.IGNORE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("handOverCases")
    void decidesForAVipHandedOver(String name, ArpFrame frame, ArpDecision expected) {
        assertThat(ArpDecision.decide(frame, Set.of(), Set.of(VIP), US)).isEqualTo(expected);
    }
}
