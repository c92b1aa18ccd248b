package me.loutres.juneau.agent.ndp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;
import org.junit.jupiter.api.Test;

/**
 * The NS/NA codec against frames built byte by byte outside it (golden bytes, checksums computed by an independent
 * implementation of RFC 8200 §8.1), and the frames it refuses to read.
 */
class NdpFrameTest {
    static final MacAddress NODE = MacAddress.parse("02:00:00:00:00:0b");
    static final MacAddress CLIENT = MacAddress.parse("02:00:00:00:00:01");
    static final IpAddress VIP = IpAddress.parse("2001:db8::100");
    static final IpAddress CLIENT_IP = IpAddress.parse("2001:db8::1");

    /** The client's NS for 2001:db8::100 to ff02::1:ff00:100, with its source link-layer option. */
    static final String SOLICITATION = "3333ff00010002000000000186dd6000000000203aff20010db8000000000000000000000001"
            + "ff0200000000000000000001ff00010087001a2b0000000020010db80000000000000000000001000101020000000001";
    /** The node's answer: S and O set, R clear, checksum 0x886c. */
    static final String ANSWER = "02000000000102000000000b86dd6000000000203aff20010db80000000000000000000001002001"
            + "0db80000000000000000000000018800886c6000000020010db8000000000000000000000100020102000000000b";
    /** The unsolicited NA to ff02::1: O only, checksum 0xf722. */
    static final String UNSOLICITED = "33330000000102000000000b86dd6000000000203aff20010db800000000000000000000010"
            + "0ff0200000000000000000000000000018800f7222000000020010db8000000000000000000000100020102000000000b";

    static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void aSolicitationIsBuiltAndReadByteForByte() {
        NdpFrame ns = NdpFrame.solicitation(CLIENT, CLIENT_IP, VIP);
        assertThat(HexFormat.of().formatHex(ns.encode())).isEqualTo(SOLICITATION);
        NdpFrame read = NdpFrame.decode(hex(SOLICITATION), hex(SOLICITATION).length).orElseThrow();
        assertThat(read).isEqualTo(ns);
        assertThat(read.isSolicitation()).isTrue();
        assertThat(read.destination()).isEqualTo(IpAddress.parse("ff02::1:ff00:100"));
        assertThat(read.linkLayer()).isEqualTo(CLIENT);
    }

    @Test
    void theAnswerIsSolicitedOverrideNotRouterWithTheTargetLinkLayerOption() {
        NdpFrame ns = NdpFrame.decode(hex(SOLICITATION), hex(SOLICITATION).length).orElseThrow();
        NdpFrame na = ns.advertisementFrom(NODE);
        assertThat(HexFormat.of().formatHex(na.encode())).isEqualTo(ANSWER);
        assertThat(na.flags()).isEqualTo(NdpFrame.SOLICITED | NdpFrame.OVERRIDE);
        assertThat(na.flags() & NdpFrame.ROUTER).isZero();
        assertThat(na.source()).isEqualTo(VIP);
        assertThat(na.destination()).isEqualTo(CLIENT_IP);
        assertThat(na.ethernetDestination()).isEqualTo(CLIENT);
        assertThat(na.linkLayer()).isEqualTo(NODE);
        assertThat(NdpFrame.decode(na.encode(), na.encode().length)).contains(na);
    }

    @Test
    void theUnsolicitedAdvertisementGoesToAllNodesWithOverride() {
        NdpFrame na = NdpFrame.unsolicited(NODE, VIP);
        assertThat(HexFormat.of().formatHex(na.encode())).isEqualTo(UNSOLICITED);
        assertThat(na.ethernetDestination()).isEqualTo(MacAddress.parse("33:33:00:00:00:01"));
        assertThat(na.destination()).isEqualTo(NdpFrame.ALL_NODES);
        assertThat(na.flags()).isEqualTo(NdpFrame.OVERRIDE);
    }

    @Test
    void aDuplicateAddressProbeIsAnsweredToAllNodesWithoutTheSolicitedFlag() {
        NdpFrame probe = NdpFrame.solicitation(CLIENT, NdpFrame.UNSPECIFIED, VIP);
        assertThat(probe.linkLayer()).as("RFC 4861 §4.3: no source link-layer option from ::").isNull();
        NdpFrame read = NdpFrame.decode(probe.encode(), probe.encode().length).orElseThrow();
        assertThat(read.isDuplicateAddressProbe()).isTrue();
        NdpFrame na = read.advertisementFrom(NODE);
        assertThat(na.destination()).isEqualTo(NdpFrame.ALL_NODES);
        assertThat(na.flags()).isEqualTo(NdpFrame.OVERRIDE);
    }

    @Test
    void solicitedNodeGroupAndItsMacTakeTheLast24Bits() {
        IpAddress a = IpAddress.parse("2001:db8::abcd:1234:5678");
        assertThat(NdpFrame.solicitedNode(a)).isEqualTo(IpAddress.parse("ff02::1:ff34:5678"));
        assertThat(NdpFrame.multicastMac(NdpFrame.solicitedNode(a))).isEqualTo(MacAddress.parse("33:33:ff:34:56:78"));
    }

    @Test
    void aWrongChecksumIsNotRead() {
        byte[] b = hex(ANSWER);
        b[b.length - 1] ^= 1;
        assertThat(NdpFrame.decode(b, b.length)).isEmpty();
    }

    @Test
    void aHopLimitOtherThan255IsNotRead() {
        NdpFrame ns = NdpFrame.decode(hex(SOLICITATION), hex(SOLICITATION).length).orElseThrow();
        NdpFrame routed = new NdpFrame(ns.ethernetDestination(), ns.ethernetSource(), ns.source(), ns.destination(),
                254, ns.type(), 0, ns.target(), ns.linkLayer());
        byte[] b = routed.encode();
        assertThat(NdpFrame.decode(b, b.length)).as("RFC 4861 §7.1.1: it crossed a router").isEmpty();
    }

    @Test
    void aZeroLengthOptionMakesTheMessageInvalid() {
        byte[] b = hex(SOLICITATION);
        b[b.length - 7] = 0; // the option's length
        assertThat(NdpFrame.decode(b, b.length)).isEmpty();
    }

    @Test
    void otherFramesAreNotRead() {
        byte[] b = hex(SOLICITATION);
        assertThat(NdpFrame.decode(b, 60)).as("truncated").isEmpty();
        byte[] arp = b.clone();
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertThat(NdpFrame.decode(arp, arp.length)).as("not IPv6").isEmpty();
        byte[] echo = b.clone();
        echo[54] = (byte) 128;
        assertThat(NdpFrame.decode(echo, echo.length)).as("an echo request").isEmpty();
        byte[] udp = b.clone();
        udp[20] = 17;
        assertThat(NdpFrame.decode(udp, udp.length)).as("not ICMPv6").isEmpty();
        assertThat(NdpFrame.decode(null, 0)).isEmpty();
    }
}
