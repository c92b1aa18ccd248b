package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BIRD's symbols for Kubernetes names of every length (docs/bgp.md, "Names in BIRD"). */
class BirdSymbolsTest {
    static final String LONGEST = "a".repeat(251) + ".z"; // 253 characters, the longest Kubernetes name

    @Test
    void aNameThatFitsIsWrittenAsItIs() {
        String fits = "r".repeat(BirdSymbols.MAX_NAME);
        assertThat(BirdSymbols.peer("tor-1")).isEqualTo("peer:tor-1");
        assertThat(BirdSymbols.exportFilter("tor-1")).isEqualTo("export:tor-1");
        assertThat(BirdSymbols.network("public")).isEqualTo("net:public");
        assertThat(BirdSymbols.exportFilter(fits)).hasSize(BirdSymbols.SYMBOL_MAX).endsWith(fits);
        assertThat(BirdSymbols.shortened(fits)).isFalse();
    }

    @Test
    void aLongerNameIsItsPrefixAndAStableHashWithinBirdsLimit() {
        String tooLong = "r".repeat(BirdSymbols.MAX_NAME + 1);
        for (String name : List.of(tooLong, LONGEST)) {
            assertThat(BirdSymbols.shortened(name)).isTrue();
            assertThat(List.of(BirdSymbols.peer(name), BirdSymbols.exportFilter(name), BirdSymbols.network(name)))
                    .allSatisfy(symbol -> assertThat(symbol.length()).isLessThanOrEqualTo(BirdSymbols.SYMBOL_MAX));
            assertThat(BirdSymbols.peer(name)).isEqualTo(BirdSymbols.peer(name))
                    .startsWith("peer:" + name.substring(0, 44) + "_").matches("peer:[a-z.]{44}_[0-9a-f]{12}");
        }
        // the SHA-256 of the whole name: stable across agents and releases, as the golden file also pins
        assertThat(BirdSymbols.peer(LONGEST)).isEqualTo("peer:" + "a".repeat(44) + "_348126405df3");
    }

    @Test
    void twoLongNamesWithOnePrefixGetTwoSymbols() {
        String a = "x".repeat(100) + "-a";
        String b = "x".repeat(100) + "-b";
        assertThat(BirdSymbols.peer(a)).isNotEqualTo(BirdSymbols.peer(b));
        // '_' is in no Kubernetes name: a short form never equals a name that fits
        assertThat(BirdSymbols.peer(a).substring("peer:".length())).contains("_");
    }

    @Test
    void onlyKubernetesNamesAreWritten() {
        assertThatThrownBy(() -> BirdSymbols.peer("Tor")).hasMessageContaining("'Tor' is not a Kubernetes object name");
        assertThatThrownBy(() -> BirdSymbols.network("a'b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BirdSymbols.network(LONGEST + "a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRendererAndTheStatusReaderUseTheSameSymbol() {
        BirdConfig config = new BirdConfig("198.18.0.2", List.of(BirdConfigs.ebgp(LONGEST, "198.18.0.1",
                List.of(LONGEST))), List.of(BirdConfigs.routes(LONGEST, List.of(), null, "198.18.100.1/32")));
        String text = BirdConfigRenderer.render(config);
        assertThat(text).contains("protocol bgp '" + BirdSymbols.peer(LONGEST) + "'")
                .contains("protocol static '" + BirdSymbols.network(LONGEST) + "'")
                .contains("if proto = \"" + BirdSymbols.network(LONGEST) + "\"")
                .contains("# BGPPeer " + LONGEST).contains("# ExternalNetwork " + LONGEST);
        // what BgpDriver looks up in `show protocols all`, by BIRD's protocol name
        BirdControl.Reply reply = new BirdControl.Reply(List.of(new BirdControl.Line(1002,
                BirdSymbols.peer(LONGEST) + " BGP        ---        up     02:40:16.661  Established   ")));
        assertThat(BirdStatus.sessions(reply)).containsKey(BirdSymbols.peer(LONGEST));
    }
}
