package me.loutres.juneau.agent.bgp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.bgp.Community;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BIRD's configuration text for each feature, against golden files in src/test/resources/bird. After a deliberate
 * change, write them again with {@code -Dgolden.update=true} and read the diff. BirdAcceptsAdmittedIT has the real
 * BIRD parse every one of them.
 */
class BirdConfigRendererTest {
    static final Path GOLDEN = Path.of("src/test/resources/bird");

    static Stream<String> names() {
        return BirdConfigs.all().keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void rendersTheGoldenText(String name) throws IOException {
        String text = BirdConfigRenderer.render(BirdConfigs.all().get(name));
        Path golden = GOLDEN.resolve(name + ".conf");
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, text, StandardCharsets.UTF_8);
        }
        assertThat(text).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    @Test
    void theSameModelInAnotherOrderIsTheSameText() {
        BirdConfig a = BirdConfigs.all().get("peers-per-network");
        BirdConfig b = new BirdConfig(a.routerId(), reversed(a.neighbors()), reversed(a.networks()));
        assertThat(BirdConfigRenderer.render(b)).isEqualTo(BirdConfigRenderer.render(a));
    }

    @Test
    void localPrefGoesOnlyToTheInternalPeer() {
        String text = BirdConfigRenderer.render(BirdConfigs.all().get("local-pref-ibgp-only"));
        String ibgpFilter = text.substring(text.indexOf("filter 'export:rr'"), text.indexOf("protocol bgp 'peer:rr'"));
        String ebgpFilter = text.substring(text.indexOf("filter 'export:tor-1'"),
                text.indexOf("protocol bgp 'peer:tor-1'"));
        assertThat(ibgpFilter).contains("bgp_local_pref = 200;");
        assertThat(ebgpFilter).doesNotContain("bgp_local_pref");
    }

    @Test
    void aPeerIsSentOnlyTheNetworksThatNameIt() {
        String text = BirdConfigRenderer.render(BirdConfigs.all().get("peers-per-network"));
        String tor2 = text.substring(text.indexOf("filter 'export:tor-2'"), text.indexOf("protocol bgp 'peer:tor-2'"));
        assertThat(tor2).contains("\"net:private\"").doesNotContain("\"net:public\"");
    }

    @Test
    void addingARouteChangesOnlyItsStaticProtocol() {
        BirdConfig before = BirdConfigs.all().get("peers-per-network");
        BirdConfig after = new BirdConfig(before.routerId(), before.neighbors(), List.of(
                BirdConfigs.routes("public", List.of(new Community.Standard(65000, 1)), null, "198.18.100.1/32",
                        "198.18.100.7/32"), before.networks().get(0)));
        List<String> removed = lines(BirdConfigRenderer.render(before));
        List<String> added = lines(BirdConfigRenderer.render(after));
        List<String> onlyAfter = added.stream().filter(l -> !removed.contains(l)).toList();
        assertThat(onlyAfter).containsExactly("  route 198.18.100.7/32 blackhole;");
        assertThat(removed.stream().filter(l -> !added.contains(l)).toList()).isEmpty();
    }

    @Test
    void aPasswordBirdCannotHoldIsRefusedWithoutShowingIt() {
        BirdConfig bad = new BirdConfig("198.18.0.2", List.of(new Neighbor("tor-1", "198.18.0.1", 65000, 65001, 179,
                90, null, false, null, "a\"b", null, List.of())), List.of());
        assertThatThrownBy(() -> BirdConfigRenderer.render(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("peer tor-1").hasMessageNotContaining("a\"b");
        assertThat(bad.neighbors().get(0).toString()).doesNotContain("a\"b");
    }

    @Test
    void aNameThatIsNoKubernetesNameIsRefused() {
        BirdConfig bad = new BirdConfig("198.18.0.2", List.of(), List.of(new NetworkRoutes("x'; }", List.of(),
                List.of(), null)));
        assertThatThrownBy(() -> BirdConfigRenderer.render(bad)).hasMessageContaining("x'; }");
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new java.util.ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    private static List<String> lines(String text) {
        return List.of(text.split("\n"));
    }
}
