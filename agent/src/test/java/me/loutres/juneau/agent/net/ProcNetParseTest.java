package me.loutres.juneau.agent.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.api.v1alpha1.NodeGateway;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;
import org.junit.jupiter.api.Test;

/** The kernel's text files as a NodeNetwork status (golden lines of a node with eth0, a bridge and loopback). */
class ProcNetParseTest {
    static final String DEV = """
            Inter-|   Receive                                                |  Transmit
             face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
              eth0: 2000      20    0    0    0     0          0         0     2000      20    0    0    0     0       0          0
               br0:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0
            """;
    static final String FIB_TRIE = """
            Main:
              +-- 0.0.0.0/0 3 0 5
                 |-- 0.0.0.0
                    /0 universe UNICAST
                 +-- 127.0.0.0/8 2 0 2
                    |-- 127.0.0.1
                       /32 host LOCAL
                 +-- 198.18.39.0/24 2 0 2
                    |-- 198.18.39.0
                       /24 link UNICAST
                    |-- 198.18.39.5
                       /32 host LOCAL
                    |-- 198.18.39.255
                       /32 link BROADCAST
                 |-- 169.254.3.4
                    /32 host LOCAL
                 |-- 198.19.0.9
                    /32 host LOCAL
            Local:
              +-- 0.0.0.0/0 3 0 5
                 +-- 198.18.39.0/24 2 0 2
                    |-- 198.18.39.5
                       /32 host LOCAL
            """;
    static final String ROUTE = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t00000000\t012712C6\t0003\t0\t0\t0\t00000000\t0\t0\t0
            eth0\t002712C6\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            br0\t0000FEA9\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            br0\t000013C6\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            """;
    static final String IF_INET6 = """
            20010db8003900000000000000000005 02 40 00 80     eth0
            fe800000000000005054fffe39000001 02 40 20 80     eth0
            00000000000000000000000000000001 01 80 10 80       lo
            """;
    static final String IPV6_ROUTE = """
            20010db8003900000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 20010db8003900000000000000000001 00000400 00000001 00000000 00000003     eth0
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            """;

    @Test
    void interfacesPrefixesAndDefaultGatewaysOfBothFamilies() {
        List<ProcNetParse.Link> links = List.of(new ProcNetParse.Link("lo", "00:00:00:00:00:00", 0x9),
                new ProcNetParse.Link("eth0", "52:54:00:39:00:01\n", ProcNetParse.flags("0x1003\n")),
                new ProcNetParse.Link("br0", "02:00:00:00:00:02", 0x1002));
        assertThat(ProcNetParse.devNames(DEV)).containsExactly("lo", "eth0", "br0");

        NodeNetworkStatus s = ProcNetParse.parse(links, FIB_TRIE, ROUTE, IF_INET6, IPV6_ROUTE);

        assertThat(s.getInterfaces()).containsExactly(
                new NodeInterface("br0", "02:00:00:00:00:02", false, List.of("198.19.0.9/16")),
                new NodeInterface("eth0", "52:54:00:39:00:01", true,
                        List.of("198.18.39.5/24", "2001:db8:39::5/64")));
        assertThat(s.getGateways()).containsExactly(new NodeGateway("198.18.39.1", "eth0"),
                new NodeGateway("2001:db8:39::1", "eth0"));
    }

    @Test
    void ipv6TextIsWhatIpPrints() {
        assertThat(ProcNetParse.ipv6("20010db8000000010000000000000000")).isEqualTo("2001:db8:0:1::");
        assertThat(ProcNetParse.ipv6("00000000000000000000000000000001")).isEqualTo("::1");
        assertThat(ProcNetParse.ipv6("20010db8000100000001000000000001")).isEqualTo("2001:db8:1:0:1::1");
        assertThat(ProcNetParse.ipv6("20010db8000100020003000400050006")).isEqualTo("2001:db8:1:2:3:4:5:6");
        assertThat(ProcNetParse.ipv4("012712C6")).isEqualTo("198.18.39.1");
    }

    @Test
    void noIpv6AndNoDefaultRouteGiveInterfacesWithoutGateways() {
        NodeNetworkStatus s = ProcNetParse.parse(List.of(new ProcNetParse.Link("eth0", "52:54:00:39:00:01", 0x1003)),
                FIB_TRIE, ROUTE.lines().filter(l -> !l.contains("012712C6")).reduce("", (a, b) -> a + b + "\n"), "", "");
        assertThat(s.getGateways()).isEmpty();
        assertThat(s.getInterfaces()).containsExactly(
                new NodeInterface("eth0", "52:54:00:39:00:01", true, List.of("198.18.39.5/24")));
    }
}
