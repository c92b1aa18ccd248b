package me.loutres.juneau.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which ExternalNetwork serves a managed Service (docs/api-reference.md, "The default network"). */
class DefaultNetworkTest {
    static final String NO_DEFAULT = "the Service has no annotation juneau.loutres.me/load-balancer-external-network and"
            + " no ExternalNetwork is marked juneau.loutres.me/default-network: \"true\"; set the annotation to the name"
            + " of an ExternalNetwork, or mark one ExternalNetwork as the default";
    static final String TWO = "the Service has no annotation juneau.loutres.me/load-balancer-external-network and"
            + " ExternalNetworks \"lan\", \"wan\" are all marked juneau.loutres.me/default-network: \"true\"; remove the"
            + " annotation juneau.loutres.me/default-network from all but one of them";

    static ExternalNetwork net(String name, String mark) {
        ExternalNetwork n = new ExternalNetwork();
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name);
        if (mark != null) {
            meta.addToAnnotations(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, mark);
        }
        n.setMetadata(meta.build());
        return n;
    }

    static ServiceLoadBalancer slb(String network, String vip) {
        ServiceLoadBalancer s = new ServiceLoadBalancer();
        s.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("default").build());
        ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
        spec.setExternalNetwork(network);
        s.setSpec(spec);
        ServiceLoadBalancerStatus st = new ServiceLoadBalancerStatus();
        st.setVip(vip);
        s.setStatus(st);
        return s;
    }

    static Stream<Arguments> table() {
        List<ExternalNetwork> none = List.of(net("lan", null), net("wan", "false"));
        List<ExternalNetwork> one = List.of(net("lan", null), net("wan", "true"));
        List<ExternalNetwork> two = List.of(net("wan", "true"), net("lan", "true"), net("dmz", "True"));
        NetworkChoice wanByDefault = new NetworkChoice.Named("wan", true);
        return Stream.of(
                Arguments.of("the annotation, trimmed", " lan ", null, one, new NetworkChoice.Named("lan", false)),
                Arguments.of("the annotation even with no default", "lan", null, none, new NetworkChoice.Named("lan", false)),
                Arguments.of("the annotation even with two defaults", "lan", null, two, new NetworkChoice.Named("lan", false)),
                Arguments.of("no annotation: the default", null, null, one, wanByDefault),
                Arguments.of("an empty annotation is none: the default", "  ", null, one, wanByDefault),
                Arguments.of("no annotation, no default", null, null, none, new NetworkChoice.Unresolved(NO_DEFAULT)),
                Arguments.of("no annotation, no network at all", null, null, List.of(), new NetworkChoice.Unresolved(NO_DEFAULT)),
                Arguments.of("no annotation, two defaults (\"True\" is not one)", null, null, two,
                        new NetworkChoice.Unresolved(TWO)),
                Arguments.of("a VIP keeps the network it came from, whatever the default is now", null,
                        slb("lan", "192.0.2.1"), one, new NetworkChoice.Named("lan", true)),
                Arguments.of("a VIP keeps its network even with two defaults", null, slb("lan", "192.0.2.1"), two,
                        new NetworkChoice.Named("lan", true)),
                Arguments.of("without a VIP the default applies again", null, slb("lan", null), one, wanByDefault),
                Arguments.of("the annotation still wins over a kept network", "wan", slb("lan", "192.0.2.1"), none,
                        new NetworkChoice.Named("wan", false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void choose(String name, String annotated, ServiceLoadBalancer slb, List<ExternalNetwork> networks,
            NetworkChoice expected) {
        assertThat(DefaultNetwork.choose(annotated, slb, networks)).isEqualTo(expected);
        if (slb == null) {
            assertThat(DefaultNetwork.choose(annotated, networks)).isEqualTo(expected);
        }
        assertThat(expected.networkOrNull()).isEqualTo(expected instanceof NetworkChoice.Named n ? n.network() : null);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("marks")
    void onlyTrueMarks(String value, boolean marked) {
        assertThat(DefaultNetwork.isDefault(net("n", value))).isEqualTo(marked);
        assertThat(DefaultNetwork.defaults(List.of(net("n", value)))).isEqualTo(marked ? List.of("n") : List.of());
    }

    static Stream<Arguments> marks() {
        return Arrays.stream(new Object[][] {{"true", true}, {"false", false}, {"True", false}, {" true", false},
                {"", false}, {null, false}}).map(Arguments::of);
    }
}
