package me.loutres.juneau.webhook.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The minimiser's own bounds: it must be able to report any failing case, a huge one included. */
class FuzzRunnerTest {
    @Test
    void aHugeListMakesNoMoreCandidatesPerRoundThanTheBound() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode items = root.putArray("items");
        for (int i = 0; i < 40_000; i++) {
            items.addObject().put("name", "n" + i);
        }
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        FuzzRunner.shrinkings(root, root, out);
        assertThat(out).hasSize(FuzzRunner.CANDIDATES_PER_ROUND);
        assertThat(out).as("one candidate halves the huge list").anySatisfy(t -> assertThat(t.path("items")).hasSize(20_000));
    }

    @Test
    void aSmallTreeGivesEveryOneStepSmallerTree() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("a", 1);
        root.putArray("b").add(1).add(2);
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        FuzzRunner.shrinkings(root, root, out);
        // without a, without b, and b without one of its two elements
        assertThat(out).extracting(Object::toString)
                .containsExactlyInAnyOrder("{\"b\":[1,2]}", "{\"a\":1}", "{\"a\":1,\"b\":[1]}", "{\"a\":1,\"b\":[2]}");
    }
}
