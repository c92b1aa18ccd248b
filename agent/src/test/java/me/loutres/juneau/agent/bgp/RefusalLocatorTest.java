package me.loutres.juneau.agent.bgp;

import me.loutres.juneau.bgp.Community;
import static me.loutres.juneau.agent.bgp.BirdConfigs.ebgp;
import static me.loutres.juneau.agent.bgp.BirdConfigs.routes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which piece BIRD refused, from the place its words name in the rendered text. The messages have BIRD 2's form
 * ({@code bird: FILE:LINE:COLUMN words} at start, the same after {@code configure}'s code), the lines are found in
 * the text the renderer really writes.
 */
class RefusalLocatorTest {
    static final BirdConfig CONFIG = new BirdConfig(BirdConfigs.ROUTER, List.of(
            ebgp("tor-1", "198.18.0.1", List.of("public", "private")),
            ebgp("tor-2", "198.18.0.4", List.of("private"))),
            List.of(routes("public", List.of(new Community.Standard(65000, 70000)), null, "198.18.100.1/32"),
                    routes("private", List.of(new Community.Standard(65000, 2)), null, "198.18.101.1/32")));
    static final String TEXT = BirdConfigRenderer.render(CONFIG);

    /** The 1-based number of the {@code nth} (from 1) line of TEXT equal to {@code line}, after {@code after}. */
    static int lineOf(String after, String line) {
        List<String> lines = TEXT.lines().toList();
        int from = lines.indexOf(after);
        assertThat(from).as("'%s' in%n%s", after, TEXT).isNotNegative();
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).equals(line)) {
                return i + 1;
            }
        }
        throw new AssertionError("no '" + line + "' after '" + after + "' in\n" + TEXT);
    }

    static String atStart(int line, String words) {
        return "BIRD did not start: BIRD exited with status 1 at start: bird: /run/juneau/bird/bird.conf:" + line
                + ":7 " + words;
    }

    @Test
    void anErrorInANetworksPartOfAPeersFilterIsTheNetworks() {
        int line = lineOf("filter 'export:tor-1' {", "    bgp_community.add((65000, 70000));");
        RefusedPiece p = RefusalLocator.locate(CONFIG, TEXT, atStart(line, "filter preevaluation, line " + line
                + ": Can't operate with value out of bounds in pair constructor"));
        assertThat(p.kind()).isEqualTo(RefusedPiece.Kind.NETWORK);
        assertThat(p.name()).isEqualTo("public");
        assertThat(p.reason()).isEqualTo("bird.conf:" + line + ":7 filter preevaluation, line " + line
                + ": Can't operate with value out of bounds in pair constructor");
    }

    @Test
    void anErrorOnTheClosingLineOfAPeersProtocolIsThePeers() {
        // BIRD checks a protocol when its block closes, and names that line (Multihop BGP with BFD ...)
        int line = lineOf("protocol bgp 'peer:tor-2' {", "}");
        RefusedPiece p = RefusalLocator.locate(CONFIG, TEXT, "BIRD refused the configuration: /run/juneau/bird/"
                + "bird.conf:" + line + ":1 Multihop BGP with BFD requires specified local address");
        assertThat(p).isEqualTo(new RefusedPiece(RefusedPiece.Kind.PEER, "tor-2", "bird.conf:" + line
                + ":1 Multihop BGP with BFD requires specified local address"));
    }

    @Test
    void anErrorInsideAPeersSessionOrOutsideTheNetworkPartsOfItsFilterIsThePeers() {
        int hold = lineOf("protocol bgp 'peer:tor-1' {", "  hold time 90;");
        assertThat(RefusalLocator.locate(CONFIG, TEXT, atStart(hold, "Hold time must be in range 3-65535 or zero")))
                .extracting(RefusedPiece::kind, RefusedPiece::name).containsExactly(RefusedPiece.Kind.PEER, "tor-1");
        int reject = lineOf("filter 'export:tor-2' {", "  reject;");
        assertThat(RefusalLocator.locate(CONFIG, TEXT, atStart(reject, "syntax error")))
                .extracting(RefusedPiece::kind, RefusedPiece::name).containsExactly(RefusedPiece.Kind.PEER, "tor-2");
    }

    @Test
    void anErrorInANetworksStaticProtocolIsTheNetworks() {
        int line = lineOf("protocol static 'net:private' {", "  route 198.18.101.1/32 blackhole;");
        assertThat(RefusalLocator.locate(CONFIG, TEXT, atStart(line, "Invalid prefix")))
                .extracting(RefusedPiece::kind, RefusedPiece::name)
                .containsExactly(RefusedPiece.Kind.NETWORK, "private");
    }

    @Test
    void aPlaceInNoPieceOrNoPlaceAtAllNamesNothing() {
        int routerId = lineOf("# Do not edit: the next change overwrites it (docs/bgp.md).",
                "router id " + BirdConfigs.ROUTER + ";");
        assertThat(RefusalLocator.locate(CONFIG, TEXT, atStart(routerId, "Invalid router ID"))).isNull();
        assertThat(RefusalLocator.locate(CONFIG, TEXT, "BIRD is not answering: Connection refused")).isNull();
        assertThat(RefusalLocator.locate(CONFIG, TEXT, atStart(TEXT.split("\n").length + 5, "past the end")))
                .isNull();
        assertThat(RefusalLocator.locate(CONFIG, TEXT, null)).isNull();
    }

    @Test
    void searchFindsThePieceWithoutWhichTheRestParsesWhenTheWordsNameNoPlace() {
        RefusedPiece p = RefusalLocator.search(CONFIG, "Reconfiguration rejected", BirdConfigRenderer::render,
                text -> text.contains("'peer:tor-2'") ? "Reconfiguration rejected" : null);
        assertThat(p).isEqualTo(new RefusedPiece(RefusedPiece.Kind.PEER, "tor-2", "Reconfiguration rejected"));
        RefusedPiece n = RefusalLocator.search(CONFIG, "no", BirdConfigRenderer::render,
                text -> text.contains("(65000, 70000)") ? "no" : null);
        assertThat(n).extracting(RefusedPiece::kind, RefusedPiece::name)
                .containsExactly(RefusedPiece.Kind.NETWORK, "public");
        assertThat(RefusalLocator.search(CONFIG, "no", BirdConfigRenderer::render, text -> "always")).isNull();
    }

    @Test
    void aNetworkLeftOutGoesFromBirdAndFromEveryPeersFilter() {
        BirdConfig without = new RefusedPiece(RefusedPiece.Kind.NETWORK, "private", "x").dropFrom(CONFIG);
        assertThat(without.networks()).extracting(NetworkRoutes::network).containsExactly("public");
        assertThat(without.neighbors()).extracting(Neighbor::networks)
                .containsExactly(List.of("public"), List.of());
        assertThat(BirdConfigRenderer.render(without)).doesNotContain("net:private");
        BirdConfig noPeer = new RefusedPiece(RefusedPiece.Kind.PEER, "tor-1", "x").dropFrom(CONFIG);
        assertThat(noPeer.neighbors()).extracting(Neighbor::peer).containsExactly("tor-2");
        assertThat(noPeer.networks()).hasSize(2);
    }

    @Test
    void theSameWordsOnAnotherLineAreTheSameReason() {
        assertThat(RefusalLocator.withoutPlace("bird.conf:23:1 Multihop BGP with BFD requires specified local address"))
                .isEqualTo(RefusalLocator.withoutPlace("bird.conf:41:1 Multihop BGP with BFD requires specified local"
                        + " address"));
        assertThat(RefusalLocator.withoutPlace("bird.conf:21:36 filter preevaluation, line 21: Can't operate"))
                .isEqualTo(RefusalLocator.withoutPlace("bird.conf:24:36 filter preevaluation, line 24: Can't operate"));
    }
}
