package me.loutres.juneau.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.status.StatusInput.Announcement;
import org.junit.jupiter.api.Test;

/**
 * Condition {@code Announced} per route (docs/bgp.md, "Status"): a node counts only when one of its Established
 * sessions covers the VIP in the addresses its agent reports BIRD carries ({@code status.carriedAddresses}); an
 * agent that reports none is read per network, as before.
 */
class AnnouncedPerRouteTest {
    static final String VIP = "198.18.100.12";

    static Announcement announced(AnnounceFacts.SessionReport... sessions) {
        return Announcements.of(JuneauConstants.MODE_BGP, VIP, List.of("node-a", "node-b"), null, "slb-x",
                null, new AnnounceFacts(null, false, List.of(sessions), List.of()));
    }

    static AnnounceFacts.SessionReport established(String node, List<String> carried) {
        return new AnnounceFacts.SessionReport("tor", node, "Established", null, null, carried);
    }

    @Test
    void aNodeWhoseBirdHasNoRouteForTheVipYetIsNotNamed() {
        Announcement a = announced(established("node-a", List.of("198.18.100.10-198.18.100.12")),
                established("node-b", List.of("198.18.100.10-198.18.100.11")));
        assertThat(a.announced()).isTrue();
        assertThat(a.message()).isEqualTo("VIP " + VIP + " is announced by node-a (tor); not by node-b: its BIRD"
                + " does not carry a route for VIP " + VIP + " yet (tor: not in status.carriedAddresses)");
    }

    @Test
    void noNodeCarryingTheVipIsNotAnnounced() {
        Announcement a = announced(established("node-a", List.of()), established("node-b", List.of("10.0.0.1")));
        assertThat(a.announced()).isFalse();
        assertThat(a.reason()).isEqualTo(JuneauConstants.REASON_NOT_ANNOUNCED);
        assertThat(a.message()).startsWith("node-a: its BIRD does not carry a route for VIP " + VIP + " yet");
    }

    @Test
    void anAggregateRouteCoversTheVip() {
        assertThat(announced(established("node-a", List.of("198.18.100.0-198.18.100.255"))).announced()).isTrue();
    }

    @Test
    void anAgentThatReportsNoCarriedAddressesIsReadPerNetwork() {
        Announcement a = announced(established("node-a", null), established("node-b", null));
        assertThat(a.announced()).isTrue();
        assertThat(a.message()).isEqualTo("VIP " + VIP + " is announced by node-a (tor), node-b (tor)");
    }
}
