package me.loutres.juneau.selection;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kubernetes' label-selector semantics over Node labels, as a table; and the texts users read. */
class LabelSelectorsTest {
    static final Map<String, String> ZONE_A = Map.of("zone", "a", "rack", "r1");
    static final Map<String, String> ZONE_B = Map.of("zone", "b");
    static final Map<String, String> NONE = Map.of();

    static LabelSelector expr(String key, String op, String... values) {
        return new LabelSelectorBuilder().addNewMatchExpression().withKey(key).withOperator(op)
                .withValues(values.length == 0 ? null : List.of(values)).endMatchExpression().build();
    }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("absent selector", null, ZONE_A, true),
                Arguments.of("empty selector", new LabelSelector(), NONE, true),
                Arguments.of("matchLabels equal", new LabelSelectorBuilder().addToMatchLabels("zone", "a").build(),
                        ZONE_A, true),
                Arguments.of("matchLabels other value", new LabelSelectorBuilder().addToMatchLabels("zone", "a")
                        .build(), ZONE_B, false),
                Arguments.of("matchLabels missing key", new LabelSelectorBuilder().addToMatchLabels("zone", "a")
                        .build(), NONE, false),
                Arguments.of("In listed", expr("zone", "In", "a", "c"), ZONE_A, true),
                Arguments.of("In not listed", expr("zone", "In", "a", "c"), ZONE_B, false),
                Arguments.of("In without the key", expr("zone", "In", "a"), NONE, false),
                Arguments.of("NotIn listed", expr("zone", "NotIn", "a"), ZONE_A, false),
                Arguments.of("NotIn not listed", expr("zone", "NotIn", "a"), ZONE_B, true),
                Arguments.of("NotIn without the key", expr("zone", "NotIn", "a"), NONE, true),
                Arguments.of("Exists", expr("rack", "Exists"), ZONE_A, true),
                Arguments.of("Exists absent", expr("rack", "Exists"), ZONE_B, false),
                Arguments.of("DoesNotExist", expr("rack", "DoesNotExist"), ZONE_B, true),
                Arguments.of("DoesNotExist present", expr("rack", "DoesNotExist"), ZONE_A, false),
                Arguments.of("labels and expressions both hold", new LabelSelectorBuilder()
                        .addToMatchLabels("zone", "a").addNewMatchExpression().withKey("rack").withOperator("In")
                        .withValues("r1").endMatchExpression().build(), ZONE_A, true),
                Arguments.of("one of two fails", new LabelSelectorBuilder().addToMatchLabels("zone", "a")
                        .addNewMatchExpression().withKey("rack").withOperator("In").withValues("r2")
                        .endMatchExpression().build(), ZONE_A, false),
                Arguments.of("unknown operator selects nothing", expr("zone", "Near", "a"), ZONE_A, false),
                Arguments.of("In without values selects nothing", expr("zone", "In"), ZONE_A, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void matchesAsKubernetesDoes(String name, LabelSelector selector, Map<String, String> labels, boolean expected) {
        assertThat(LabelSelectors.matches(selector, labels)).isEqualTo(expected);
    }

    @Test
    void problemsNameTheBadPart() {
        assertThat(LabelSelectors.problem(expr("zone", "Near", "a"))).contains(
                "matchExpressions[0].operator \"Near\" is not one of In, NotIn, Exists, DoesNotExist");
        assertThat(LabelSelectors.problem(expr("zone", "In"))).contains(
                "matchExpressions[0] (zone In) has no values; operator In needs at least one value");
        assertThat(LabelSelectors.problem(expr("zone", "Exists", "a"))).contains(
                "matchExpressions[0] (zone Exists) has values [a]; operator Exists takes none: remove them");
        assertThat(LabelSelectors.problem(expr("", "Exists"))).contains(
                "matchExpressions[0].key is empty; name the label the requirement tests");
        assertThat(LabelSelectors.problem(expr("zone", "In", "a"))).isEmpty();
        assertThat(LabelSelectors.problem(null)).isEmpty();
    }

    @Test
    void describesAsAPersonReadsIt() {
        LabelSelector s = new LabelSelectorBuilder().addToMatchLabels("rack", "r1").addNewMatchExpression()
                .withKey("zone").withOperator("In").withValues("a", "b").endMatchExpression().addNewMatchExpression()
                .withKey("gpu").withOperator("DoesNotExist").endMatchExpression().addNewMatchExpression()
                .withKey("edge").withOperator("Exists").endMatchExpression().build();
        assertThat(LabelSelectors.describe(s)).isEqualTo("rack=r1, zone In [a,b], !gpu, edge");
        assertThat(LabelSelectors.describe(null)).isEqualTo("every node");
        assertThat(LabelSelectors.keys(s)).containsExactly("edge", "gpu", "rack", "zone");
    }

    @Test
    void exclusionLabelWinsWhateverItsValueAndTheSelector() {
        Map<String, Map<String, String>> nodes = Map.of(
                "node-a", Map.of("zone", "a"),
                "node-c", Map.of("zone", "a", NodeEligibility.EXCLUDE_LABEL, ""),
                "node-d", Map.of("zone", "b"));
        NodeEligibility e = NodeEligibility.of("edge", expr("zone", "In", "a"), nodes);
        assertThat(e.whyNot("node-a")).isNull();
        assertThat(e.whyNot("node-c")).isEqualTo("excluded by node.kubernetes.io/exclude-from-external-load-balancers");
        assertThat(e.whyNot("node-d")).isEqualTo("not selected by ExternalNetwork edge (zone In [a])");
        assertThat(e.whyNot("node-x")).isEqualTo("not selected by ExternalNetwork edge (zone In [a]); no Node object"
                + " of this name exists");
        NodeEligibility noSelector = NodeEligibility.of("edge", null, nodes);
        assertThat(noSelector.allows("node-d")).isTrue();
        assertThat(noSelector.allows("node-x")).as("no selector: a node without a Node object is not held back")
                .isTrue();
        assertThat(noSelector.whyNot("node-c")).startsWith("excluded by");
        assertThat(NodeEligibility.of("edge", expr("zone", "Near", "a"), nodes).whyNot("node-a"))
                .isEqualTo("ExternalNetwork edge has an invalid nodeSelector (matchExpressions[0].operator \"Near\""
                        + " is not one of In, NotIn, Exists, DoesNotExist)");
    }
}
