package me.loutres.juneau.agent.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.agent.bgp.RefusedPiece;
import me.loutres.juneau.agent.bgp.SessionReport;
import org.junit.jupiter.api.Test;

/** The BGP series a scrape lists are those of the peers and refused pieces there are now. */
class AgentMetricsTest {
    @Test
    void aPeerThatNoLongerAppliesTakesItsSeriesWithIt() {
        AgentMetrics m = new AgentMetrics();
        m.bgpSessions(List.of(new SessionReport("tor-1", "Established", null, 3, null),
                new SessionReport("gone", "Active", null, 0, "Socket: Connection refused")));
        assertThat(m.scrape()).contains("juneau_agent_bgp_session_up{peer=\"tor-1\"} 1.0")
                .contains("juneau_agent_bgp_routes_advertised{peer=\"tor-1\"} 3.0")
                .contains("juneau_agent_bgp_session_up{peer=\"gone\"} 0.0");

        m.bgpSessions(List.of(new SessionReport("tor-1", "Established", null, 4, null)));

        assertThat(m.scrape()).doesNotContain("peer=\"gone\"")
                .contains("juneau_agent_bgp_routes_advertised{peer=\"tor-1\"} 4.0");
        m.bgpSessions(List.of(new SessionReport("gone", "Idle", null, 0, null)));
        assertThat(m.scrape()).as("back again: a new series").contains("juneau_agent_bgp_session_up{peer=\"gone\"} 0.0")
                .doesNotContain("peer=\"tor-1\"");
    }

    @Test
    void aRefusedPieceHasItsSeriesWhileRefused() {
        AgentMetrics m = new AgentMetrics();
        RefusedPiece peer = new RefusedPiece(RefusedPiece.Kind.PEER, "bad", "bird.conf:43:1 Multihop");
        RefusedPiece net = new RefusedPiece(RefusedPiece.Kind.NETWORK, "broken", "bird.conf:21:36 bounds");
        m.bgpRefused(List.of(peer, net));
        assertThat(m.scrape()).contains("juneau_agent_bgp_refused{kind=\"BGPPeer\",name=\"bad\"} 1.0")
                .contains("juneau_agent_bgp_refused{kind=\"ExternalNetwork\",name=\"broken\"} 1.0");
        m.bgpRefused(List.of(net));
        assertThat(m.scrape()).doesNotContain("name=\"bad\"").contains("name=\"broken\"");
        assertThat(m.bgpRefusedCount()).isEqualTo(1);
    }
}
