package me.loutres.juneau.agent.arp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.stream.Stream;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ArpFrameTest {
    static final MacAddress A = MacAddress.parse("02:00:00:00:00:0a");
    static final MacAddress B = MacAddress.parse("02:00:00:00:00:0b");
    static final long VIP = Ipv4.parse("198.18.0.100");
    static final long CLIENT = Ipv4.parse("198.18.0.1");

    /** A request as tcpdump -xx shows it: who-has 198.18.0.100 tell 198.18.0.1 from 02:00:00:00:00:0b. */
    static final String WIRE_REQUEST = "ffffffffffff" + "02000000000b" + "0806" + "0001" + "0800" + "06" + "04" + "0001"
            + "02000000000b" + "c6120001" + "000000000000" + "c6120064";

    @Test
    void decodesARequestAsItIsOnTheWire() {
        byte[] wire = HexFormat.of().parseHex(WIRE_REQUEST);

        ArpFrame f = ArpFrame.decode(wire, wire.length).orElseThrow();

        assertThat(f).isEqualTo(ArpFrame.request(B, CLIENT, VIP));
        assertThat(f.toString()).isEqualTo("who-has 198.18.0.100 tell 198.18.0.1 (02:00:00:00:00:0b > ff:ff:ff:ff:ff:ff)");
    }

    @Test
    void encodesTheSameBytesPaddedToTheEthernetMinimum() {
        byte[] out = ArpFrame.request(B, CLIENT, VIP).encode();

        assertThat(out).hasSize(60);
        assertThat(HexFormat.of().formatHex(out)).isEqualTo(WIRE_REQUEST + "00".repeat(18));
    }

    static Stream<Arguments> roundTrips() {
        return Stream.of(
                Arguments.of("request", ArpFrame.request(B, CLIENT, VIP)),
                Arguments.of("reply to it", ArpFrame.request(B, CLIENT, VIP).replyFrom(A)),
                Arguments.of("gratuitous request", ArpFrame.gratuitousRequest(A, VIP)),
                Arguments.of("gratuitous reply", ArpFrame.gratuitousReply(A, VIP)),
                Arguments.of("high addresses", ArpFrame.request(MacAddress.BROADCAST, Ipv4.parse("255.255.255.254"),
                        Ipv4.parse("224.0.0.1"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTrips")
    void roundTrips(String name, ArpFrame frame) {
        byte[] b = frame.encode();
        assertThat(ArpFrame.decode(b, b.length)).contains(frame);
    }

    @Test
    void aReplyGoesBackToWhoAskedWithOurMacAndTheVip() {
        ArpFrame reply = ArpFrame.request(B, CLIENT, VIP).replyFrom(A);

        assertThat(reply.ethernetDestination()).isEqualTo(B);
        assertThat(reply.ethernetSource()).isEqualTo(A);
        assertThat(reply.isReply()).isTrue();
        assertThat(reply.senderMac()).isEqualTo(A);
        assertThat(reply.senderIp()).isEqualTo(VIP);
        assertThat(reply.targetMac()).isEqualTo(B);
        assertThat(reply.targetIp()).isEqualTo(CLIENT);
    }

    @Test
    void gratuitousFormsAreWhatLinuxTakesAsGratuitous() {
        // Linux (arp_is_garp): spa == tpa; a reply also needs tha == sha
        ArpFrame req = ArpFrame.gratuitousRequest(A, VIP);
        ArpFrame rep = ArpFrame.gratuitousReply(A, VIP);

        assertThat(req.senderIp()).isEqualTo(req.targetIp()).isEqualTo(VIP);
        assertThat(req.ethernetDestination()).isEqualTo(MacAddress.BROADCAST);
        assertThat(req.isRequest()).isTrue();
        assertThat(rep.senderIp()).isEqualTo(rep.targetIp()).isEqualTo(VIP);
        assertThat(rep.targetMac()).isEqualTo(rep.senderMac()).isEqualTo(A);
        assertThat(rep.ethernetDestination()).isEqualTo(MacAddress.BROADCAST);
        assertThat(rep.isReply()).isTrue();
    }

    static Stream<Arguments> notArp() {
        String ok = WIRE_REQUEST;
        return Stream.of(
                Arguments.of("truncated", ok.substring(0, ok.length() - 2)),
                Arguments.of("IPv4 ethertype", ok.replaceFirst("0806", "0800")),
                Arguments.of("hardware type not Ethernet", ok.substring(0, 28) + "0006" + ok.substring(32)),
                Arguments.of("protocol not IPv4", ok.substring(0, 32) + "86dd" + ok.substring(36)),
                Arguments.of("hardware length 8", ok.substring(0, 36) + "08" + ok.substring(38)),
                Arguments.of("operation 3 (RARP)", ok.substring(0, 40) + "0003" + ok.substring(44)),
                Arguments.of("empty", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notArp")
    void ignoresWhatIsNotIpv4OverEthernetArp(String name, String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        assertThat(ArpFrame.decode(b, b.length)).isEmpty();
    }

    @Test
    void macAddressesParseAndRejectWithOneLine() {
        assertThat(MacAddress.parse(" 02:00:00:00:00:0A ").toString()).isEqualTo("02:00:00:00:00:0a");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MacAddress.parse("02:00:00:00:00"))
                .hasMessage("\"02:00:00:00:00\" is not a MAC address; expected six hex pairs such as 02:00:5e:10:00:01");
    }
}
