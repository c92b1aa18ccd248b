package me.loutres.juneau.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which label keys changed between two versions of a Node: only these can change who may announce. */
class NodeLabelChangeTest {

    @Test
    void addedRemovedAndChangedKeysCountUnchangedOnesDoNot() {
        Map<String, String> before = Map.of("zone", "a", "rack", "r1", "keep", "x");
        Map<String, String> after = Map.of("zone", "b", "keep", "x", "node.kubernetes.io/exclude-from-external-load-balancers", "");
        assertThat(NodeLabelChange.changedKeys(before, after)).containsExactly(
                "node.kubernetes.io/exclude-from-external-load-balancers", "rack", "zone");
        assertThat(NodeLabelChange.changedKeys(before, before)).isEmpty();
        assertThat(NodeLabelChange.changedKeys(null, Map.of("a", "1"))).containsExactly("a");
        assertThat(NodeLabelChange.changedKeys(Map.of("a", ""), null)).containsExactly("a");
        assertThat(NodeLabelChange.changedKeys(Map.of("a", ""), Map.of("a", "true")))
                .as("a new value of the same key").containsExactly("a");
    }
}
