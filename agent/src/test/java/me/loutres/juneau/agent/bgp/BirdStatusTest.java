package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BIRD 2.0.12's answers as they come off the control socket (recorded from the daemon), read into sessions. */
class BirdStatusTest {
    static BirdControl.Reply reply(Object... codeAndText) {
        List<BirdControl.Line> lines = new java.util.ArrayList<>();
        for (int i = 0; i < codeAndText.length; i += 2) {
            lines.add(new BirdControl.Line((Integer) codeAndText[i], (String) codeAndText[i + 1]));
        }
        return new BirdControl.Reply(lines);
    }

    @Test
    void readsEstablishedAndActiveSessionsWithTheirErrorAndRoutes() {
        BirdControl.Reply r = reply(
                2002, "Name       Proto      Table      State  Since         Info",
                1002, "juneau-device Device  ---        up     02:40:12.257  ",
                1006, "",
                1002, "net:public Static     master4    up     02:40:12.257  ",
                1006, "  Channel ipv4",
                1006, "    Routes:         1 imported, 0 exported, 1 preferred",
                1002, "peer:tor-1 BGP        ---        up     02:40:16.661  Established   ",
                1006, "  BGP state:          Established",
                1006, "    Neighbor address: 198.18.0.1",
                1006, "    Routes:         0 imported, 3 exported, 0 preferred",
                1002, "peer:tor-2 BGP        ---        start  02:46:07.559  Active        Socket: Connection refused",
                1006, "  BGP state:          Active",
                1006, "    Neighbor address: 198.18.0.4",
                1006, "    Last error:       Socket: Connection refused",
                1002, "peer:tor-3 BGP        ---        down   02:46:07.559  ",
                1006, "  BGP state:          Down",
                0, "");
        Map<String, BirdStatus.Session> s = BirdStatus.sessions(r);
        assertThat(s).containsOnlyKeys("peer:tor-1", "peer:tor-2", "peer:tor-3");
        assertThat(s.get("peer:tor-1")).isEqualTo(new BirdStatus.Session("Established", "198.18.0.1", null, 3));
        assertThat(s.get("peer:tor-1").established()).isTrue();
        assertThat(s.get("peer:tor-2")).isEqualTo(new BirdStatus.Session("Active", "198.18.0.4",
                "Socket: Connection refused", 0));
        assertThat(s.get("peer:tor-3").established()).isFalse();
    }

    @Test
    void readsBfdSessionsByNeighbour() {
        BirdControl.Reply r = reply(
                1020, "juneau-bfd:",
                1020, "IP address                Interface  State      Since         Interval  Timeout",
                1020, "198.18.0.1                eth0       Up         02:40:13.008    0.300    1.500",
                1020, "198.18.0.4                eth0       Down       02:46:07.545    1.000    0.000",
                0, "");
        assertThat(BirdStatus.bfd(r)).containsExactly(Map.entry("198.18.0.1", "Up"), Map.entry("198.18.0.4", "Down"));
    }

    @Test
    void aReplyIsAnErrorFromCode8000() {
        assertThat(reply(2, "Reading configuration from /run/juneau/bird/bird.conf", 3, "Reconfigured").ok()).isTrue();
        BirdControl.Reply refused = reply(8002, "/run/juneau/bird/bird.conf:3:10 syntax error");
        assertThat(refused.ok()).isFalse();
        assertThat(refused.summary()).isEqualTo("/run/juneau/bird/bird.conf:3:10 syntax error");
    }
}
