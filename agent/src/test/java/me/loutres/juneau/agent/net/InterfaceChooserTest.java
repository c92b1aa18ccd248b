package me.loutres.juneau.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InterfaceChooserTest {
    static InterfaceInfo iface(String name, String prefix, boolean up) {
        String[] p = prefix.split("/");
        return new InterfaceInfo(name, name.hashCode() & 0xff, MacAddress.parse("02:00:00:00:00:" + String.format("%02x",
                name.length())), List.of(new InterfaceInfo.Prefix(Ipv4.parse(p[0]), Integer.parseInt(p[1]))), up, false);
    }

    static final InterfaceInfo LO = new InterfaceInfo("lo", 1, null,
            List.of(new InterfaceInfo.Prefix(Ipv4.parse("127.0.0.1"), 8)), true, true);
    static final InterfaceInfo ETH0 = iface("eth0", "198.18.0.11/24", true);
    static final InterfaceInfo ETH1 = iface("eth1", "10.1.0.5/16", true);
    static final InterfaceInfo DOWN = iface("eth2", "198.19.0.5/24", false);
    static final List<InterfaceInfo> HOST = List.of(LO, ETH1, ETH0, DOWN);

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("the interface whose prefix contains the VIP", List.of(), "198.18.0.100", "eth0"),
                Arguments.of("another prefix, another interface", List.of(), "10.1.200.1", "eth1"),
                Arguments.of("candidates narrow the choice", List.of("eth0", "eth1"), "198.18.0.100", "eth0"),
                Arguments.of("one named candidate answers a VIP outside its prefixes", List.of("eth1"), "203.0.113.5",
                        "eth1"),
                Arguments.of("no prefix contains it and nothing named: none", List.of(), "203.0.113.5", null),
                Arguments.of("a prefix on a link that is down does not count", List.of(), "198.19.0.9", null),
                Arguments.of("a candidate that does not exist: none", List.of("bond0"), "198.18.0.100", null),
                Arguments.of("two candidates, neither on-link: no guess", List.of("eth0", "eth1"), "203.0.113.5", null),
                Arguments.of("loopback never answers", List.of("lo"), "127.0.0.5", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void chooses(String name, List<String> candidates, String vip, String expected) {
        InterfaceChooser.Choice c = new InterfaceChooser(candidates).choose(Ipv4.parse(vip), HOST);
        if (expected == null) {
            assertThat(c).isInstanceOf(InterfaceChooser.NotFound.class);
        } else {
            assertThat(c).isEqualTo(new InterfaceChooser.Chosen(HOST.stream().filter(i -> i.name().equals(expected))
                    .findFirst().orElseThrow()));
        }
    }

    @org.junit.jupiter.api.Test
    void explainsWhatItSawWhenNothingFits() {
        InterfaceChooser.Choice none = new InterfaceChooser(List.of()).choose(Ipv4.parse("203.0.113.5"), HOST);
        InterfaceChooser.Choice named = new InterfaceChooser(List.of("bond0")).choose(Ipv4.parse("203.0.113.5"), HOST);

        assertThat(none).isEqualTo(new InterfaceChooser.NotFound("no up interface has an IPv4 prefix containing"
                + " 203.0.113.5 (seen: eth0 198.18.0.11/24; eth1 10.1.0.5/16); add an address of that network to the"
                + " node's interface or name it with --interface"));
        assertThat(named).isEqualTo(new InterfaceChooser.NotFound("none of --interface (bond0) is up with an IPv4 prefix"
                + " containing 203.0.113.5 (seen: no usable interface); add an address of that network to the node's"
                + " interface or name it with --interface"));
    }
}
