package me.loutres.juneau.agent.bgp;

import me.loutres.juneau.bgp.Community;
import static me.loutres.juneau.agent.bgp.BirdConfigs.ebgp;
import static me.loutres.juneau.agent.bgp.BirdConfigs.routes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Refused pieces stay out while unchanged and come back with backoff; a changed piece is tried at once. */
class RefusalsTest {
    static final BirdConfig CONFIG = new BirdConfig(BirdConfigs.ROUTER, List.of(
            ebgp("tor-1", "198.18.0.1", List.of("public")), ebgp("bad", "198.18.0.5", List.of("public"))),
            List.of(routes("public", List.of(), null, "198.18.100.1/32")));
    static final RefusedPiece BAD = new RefusedPiece(RefusedPiece.Kind.PEER, "bad", "bird.conf:30:1 no");

    static List<String> peers(BirdConfig c) {
        return c.neighbors().stream().map(Neighbor::peer).toList();
    }

    @Test
    void aRefusedPeerIsLeftOutAndTriedAgainAfterOneTwoFourSecondsUpToAMinute() {
        Refusals r = new Refusals();
        assertThat(r.refused(BAD, CONFIG, 0)).as("first refusal: WARN").isTrue();
        assertThat(peers(r.apply(CONFIG, 999))).containsExactly("tor-1");
        assertThat(peers(r.apply(CONFIG, 1000))).containsExactly("bad", "tor-1");
        assertThat(r.refused(BAD.because("bird.conf:31:1 no"), CONFIG, 1000)).as("same words elsewhere: no WARN")
                .isFalse();
        assertThat(peers(r.apply(CONFIG, 2999))).containsExactly("tor-1");
        assertThat(peers(r.apply(CONFIG, 3000))).containsExactly("bad", "tor-1");
        long t = 3000;
        for (int i = 0; i < 10; i++) {
            r.refused(BAD, CONFIG, t);
            t += 60_000;
        }
        r.refused(BAD, CONFIG, t);
        assertThat(peers(r.apply(CONFIG, t + 59_999))).containsExactly("tor-1");
        assertThat(peers(r.apply(CONFIG, t + 60_000))).as("capped at a minute").containsExactly("bad", "tor-1");
        assertThat(r.refused(BAD.because("bird.conf:30:1 other words"), CONFIG, t)).as("new words: WARN").isTrue();
    }

    @Test
    void aPeerThatChangedIsTriedAtOnce() {
        Refusals r = new Refusals();
        r.refused(BAD, CONFIG, 0);
        BirdConfig edited = new BirdConfig(BirdConfigs.ROUTER, List.of(ebgp("tor-1", "198.18.0.1", List.of("public")),
                ebgp("bad", "198.18.0.6", List.of("public"))), CONFIG.networks());
        assertThat(peers(r.apply(edited, 10))).containsExactly("bad", "tor-1");
        assertThat(r.peer("bad")).as("forgotten: the change may be the fix").isNull();
    }

    @Test
    void aNetworkWhoseRoutesChangeStaysOutUntilItsAttributesChange() {
        Refusals r = new Refusals();
        RefusedPiece net = new RefusedPiece(RefusedPiece.Kind.NETWORK, "public", "bird.conf:9:5 out of bounds");
        r.refused(net, CONFIG, 0);
        BirdConfig moreRoutes = new BirdConfig(BirdConfigs.ROUTER, CONFIG.neighbors(),
                List.of(routes("public", List.of(), null, "198.18.100.1/32", "198.18.100.2/32")));
        assertThat(r.apply(moreRoutes, 10).networks()).isEmpty();
        assertThat(r.network("public")).isEqualTo(net);
        BirdConfig otherCommunities = new BirdConfig(BirdConfigs.ROUTER, CONFIG.neighbors(),
                List.of(routes("public", List.of(new Community.Standard(65000, 1)), null, "198.18.100.1/32")));
        assertThat(r.apply(otherCommunities, 20).networks()).hasSize(1);
        assertThat(r.pieces()).isEmpty();
    }

    @Test
    void whatBirdAcceptedIsNoLongerRefused() {
        Refusals r = new Refusals();
        r.refused(BAD, CONFIG, 0);
        r.accepted(r.apply(CONFIG, 0));
        assertThat(r.pieces()).containsExactly(BAD);
        r.accepted(r.apply(CONFIG, 1000));
        assertThat(r.pieces()).isEmpty();
    }
}
