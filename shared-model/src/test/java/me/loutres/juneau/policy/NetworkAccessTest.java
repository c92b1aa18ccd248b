package me.loutres.juneau.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Who may use an ExternalNetwork (docs/install.md, "Sharing a cluster between teams"): the rule's table. */
class NetworkAccessTest {
    static final Map<String, String> GOLD = Map.of("tenant", "gold");
    static final Map<String, String> SILVER = Map.of("tenant", "silver");
    static final Map<String, String> EDGE = Map.of("tier", "edge");

    static LabelSelector labels(String key, String value) {
        return new LabelSelectorBuilder().addToMatchLabels(key, value).build();
    }

    static LabelSelector expression(String key, String operator, String... values) {
        return new LabelSelectorBuilder().addNewMatchExpression().withKey(key).withOperator(operator)
                .withValues(values).endMatchExpression().build();
    }

    static ServiceAllocation allocation(List<String> namespaces, List<LabelSelector> nsSelectors,
            List<LabelSelector> svcSelectors) {
        ServiceAllocation sa = new ServiceAllocation();
        sa.setNamespaces(namespaces);
        sa.setNamespaceSelectors(nsSelectors);
        sa.setServiceSelectors(svcSelectors);
        return sa;
    }

    static ExternalNetwork network(String name, ServiceAllocation sa) {
        ExternalNetwork n = new ExternalNetwork();
        n.setMetadata(new ObjectMetaBuilder().withName(name).build());
        ExternalNetworkSpec spec = new ExternalNetworkSpec("arp", List.of("pool-a"));
        spec.setServiceAllocation(sa);
        n.setSpec(spec);
        return n;
    }

    static NetworkAccess.Requester who(String ns, Map<String, String> nsLabels, Map<String, String> svcLabels) {
        return new NetworkAccess.Requester(ns, "web", nsLabels, svcLabels);
    }

    static Stream<Arguments> table() {
        ServiceAllocation teamA = allocation(List.of("team-a"), null, null);
        ServiceAllocation gold = allocation(null, List.of(labels("tenant", "gold")), null);
        ServiceAllocation edge = allocation(null, null, List.of(labels("tier", "edge")));
        ServiceAllocation teamAOrGold = allocation(List.of("team-a"), List.of(labels("tenant", "gold")), null);
        ServiceAllocation teamAEdge = allocation(List.of("team-a"), null, List.of(labels("tier", "edge")));
        ServiceAllocation all = allocation(List.of("team-a", "team-c"), List.of(labels("tenant", "gold"),
                expression("tenant", "In", "platinum")), List.of(labels("tier", "edge"), expression("public", "Exists")));
        ServiceAllocation empty = allocation(List.of(), List.of(), List.of());
        ServiceAllocation notSilver = allocation(null, List.of(expression("tenant", "NotIn", "silver")), null);
        ServiceAllocation broken = allocation(null, List.of(expression("tenant", "Gt", "1")), null);
        ServiceAllocation anyNamespace = allocation(null, List.of(new LabelSelector()), null);
        String teamAMsg = "namespace team-b may not use ExternalNetwork public: it allows namespace team-a";
        String spec12 = "namespace team-b may not use ExternalNetwork public: it allows namespace team-a, or namespaces"
                + " labelled tenant=gold";
        return Stream.of(
                Arguments.of("no serviceAllocation: every Service", null, who("team-b", SILVER, Map.of()), null),
                Arguments.of("an empty serviceAllocation: every Service", new ServiceAllocation(),
                        who("team-b", SILVER, Map.of()), null),
                Arguments.of("empty lists restrict nothing", empty, who("team-b", null, Map.of()), null),
                // namespaces alone
                Arguments.of("namespaces: listed", teamA, who("team-a", Map.of(), Map.of()), null),
                Arguments.of("namespaces: listed, Namespace unknown (the name is enough)", teamA,
                        who("team-a", null, Map.of()), null),
                Arguments.of("namespaces: not listed", teamA, who("team-b", GOLD, EDGE), teamAMsg),
                // namespaceSelectors alone
                Arguments.of("namespaceSelectors: labelled", gold, who("team-b", GOLD, Map.of()), null),
                Arguments.of("namespaceSelectors: other labels", gold, who("team-b", SILVER, Map.of()),
                        "namespace team-b may not use ExternalNetwork public: it allows namespaces labelled tenant=gold"),
                Arguments.of("namespaceSelectors: Namespace unknown is never selected", gold, who("team-b", null, Map.of()),
                        "namespace team-b may not use ExternalNetwork public: it allows namespaces labelled tenant=gold"
                                + " (Namespace team-b is not known here, so no namespace selector selects it)"),
                Arguments.of("namespaceSelectors: NotIn selects a namespace without the label", notSilver,
                        who("team-b", Map.of(), Map.of()), null),
                Arguments.of("namespaceSelectors: NotIn never selects an unknown Namespace (fail closed)", notSilver,
                        who("team-b", null, Map.of()), "namespace team-b may not use ExternalNetwork public: it allows"
                                + " namespaces labelled tenant NotIn [silver] (Namespace team-b is not known here, so no"
                                + " namespace selector selects it)"),
                Arguments.of("namespaceSelectors: an invalid selector selects nothing", broken,
                        who("team-b", Map.of("tenant", "2"), Map.of()), "namespace team-b may not use ExternalNetwork"
                                + " public: it allows namespaces labelled tenant Gt [1]"),
                Arguments.of("namespaceSelectors: an empty selector selects every known namespace", anyNamespace,
                        who("team-b", Map.of(), Map.of()), null),
                // serviceSelectors alone
                Arguments.of("serviceSelectors: labelled", edge, who("team-b", null, EDGE), null),
                Arguments.of("serviceSelectors: not labelled", edge, who("team-b", GOLD, Map.of("tier", "internal")),
                        "Service team-b/web may not use ExternalNetwork public: it allows only Services labelled"
                                + " tier=edge"),
                // combined: namespaces or namespaceSelectors, and serviceSelectors
                Arguments.of("namespaces + namespaceSelectors: listed is enough", teamAOrGold,
                        who("team-a", SILVER, Map.of()), null),
                Arguments.of("namespaces + namespaceSelectors: labelled is enough", teamAOrGold,
                        who("team-b", GOLD, Map.of()), null),
                Arguments.of("namespaces + namespaceSelectors: neither (SPEC's message)", teamAOrGold,
                        who("team-b", SILVER, Map.of()), spec12),
                Arguments.of("namespaces + serviceSelectors: both hold", teamAEdge, who("team-a", null, EDGE), null),
                Arguments.of("namespaces + serviceSelectors: the namespace, not the Service", teamAEdge,
                        who("team-a", null, Map.of()), "Service team-a/web may not use ExternalNetwork public: it"
                                + " allows namespace team-a, and there only Services labelled tier=edge"),
                Arguments.of("namespaces + serviceSelectors: the Service, not the namespace", teamAEdge,
                        who("team-b", null, EDGE), "namespace team-b may not use ExternalNetwork public: it allows"
                                + " namespace team-a, and there only Services labelled tier=edge"),
                Arguments.of("all three: a platinum namespace and a public Service", all,
                        who("team-x", Map.of("tenant", "platinum"), Map.of("public", "")), null),
                Arguments.of("all three: a platinum namespace, a private Service", all,
                        who("team-x", Map.of("tenant", "platinum"), Map.of("tier", "core")),
                        "Service team-x/web may not use ExternalNetwork public: it allows namespaces team-a, team-c, or"
                                + " namespaces labelled tenant=gold, or namespaces labelled tenant In [platinum], and"
                                + " there only Services labelled tier=edge, or Services labelled public"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void rule(String name, ServiceAllocation sa, NetworkAccess.Requester who, String refusal) {
        ExternalNetwork net = network("public", sa);
        assertThat(NetworkAccess.refusal(net, who)).isEqualTo(Optional.ofNullable(refusal));
        assertThat(NetworkAccess.allows(net, who)).isEqualTo(refusal == null);
    }

    @Test
    void restrictsOnlyWithANonEmptyList() {
        assertThat(NetworkAccess.restricts(network("n", null))).isFalse();
        assertThat(NetworkAccess.restricts(network("n", allocation(List.of(), List.of(), null)))).isFalse();
        assertThat(NetworkAccess.restricts(network("n", allocation(null, null, List.of(new LabelSelector()))))).isTrue();
        assertThat(NetworkAccess.whoMay(network("n", null))).isEqualTo("every Service");
    }

    @Test
    void namespaceLabelKeysAreWhatTheNamespaceSelectorsTest() {
        ExternalNetwork net = network("n", allocation(List.of("team-a"), List.of(labels("tenant", "gold"),
                expression("zone", "Exists")), List.of(labels("tier", "edge"))));
        // the Service selectors read the Service's labels, not the Namespace's: a Namespace's tier changes nothing
        assertThat(NetworkAccess.namespaceLabelKeys(net)).containsExactly("tenant", "zone");
        assertThat(NetworkAccess.namespaceLabelKeys(network("n", null))).isEmpty();
    }

    /** The default network is chosen only among the networks the Service may use. */
    @Test
    void theDefaultIsChosenAmongTheNetworksTheServiceMayUse() {
        ExternalNetwork lan = marked(network("lan", allocation(List.of("team-a"), null, null)));
        ExternalNetwork open = marked(network("open", null));
        NetworkAccess.Requester teamA = who("team-a", Map.of(), Map.of());
        NetworkAccess.Requester teamB = who("team-b", Map.of(), Map.of());
        assertThat(DefaultNetwork.choose(null, List.of(lan), teamA)).isEqualTo(new NetworkChoice.Named("lan", true));
        assertThat(DefaultNetwork.choose(null, List.of(lan), teamB)).isEqualTo(new NetworkChoice.Unresolved(
                "the Service has no annotation juneau.loutres.me/load-balancer-external-network, and namespace team-b"
                        + " may not use ExternalNetwork lan: it allows namespace team-a; set the annotation to an"
                        + " ExternalNetwork this Service may use", true));
        // two marks (only stored around the webhook): the one the Service may use serves it
        assertThat(DefaultNetwork.choose(null, List.of(lan, open), teamB)).isEqualTo(new NetworkChoice.Named("open", true));
        assertThat(DefaultNetwork.choose(null, List.of(lan, open), teamA)).isInstanceOf(NetworkChoice.Unresolved.class)
                .matches(c -> !((NetworkChoice.Unresolved) c).notAllowed());
        // a named network is not the default's business: the caller judges it
        assertThat(DefaultNetwork.choose("lan", List.of(lan), teamB)).isEqualTo(new NetworkChoice.Named("lan", false));
        // without a requester (callers that do not judge access) the rule is not applied
        assertThat(DefaultNetwork.choose(null, List.of(lan), (NetworkAccess.Requester) null))
                .isEqualTo(new NetworkChoice.Named("lan", true));
    }

    private static ExternalNetwork marked(ExternalNetwork n) {
        n.getMetadata().setAnnotations(Map.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK, "true"));
        return n;
    }
}
