package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The store's resourceVersion rules, from "API Concepts" (Resource versions; Efficient detection of changes): one
 * counter across kinds, a watch resumes after the version given, and a version older than the retained history
 * is 410 Gone ("too old resource version") so the client lists again.
 */
class StoreTest {
    private final Registry registry = new Registry();
    private final ResourceType nodes = registry.find("v1", "nodes").orElseThrow();

    private static ObjectNode node(String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.putObject("metadata").put("name", name).put("uid", "uid-" + name);
        return o;
    }

    @Test
    void everyWriteGetsTheNextResourceVersionAndAStaleOneConflicts() throws ApiException {
        Store store = new Store();
        ObjectNode a = store.create(nodes, node("a"));
        ObjectNode b = store.create(nodes, node("b"));
        assertThat(Long.parseLong(Json.rv(b))).isEqualTo(Long.parseLong(Json.rv(a)) + 1);
        ObjectNode a2 = store.update(nodes, a, Json.rv(a));
        assertThatThrownBy(() -> store.update(nodes, a, Json.rv(a))).isInstanceOf(ApiException.class)
                .hasMessageContaining("the object has been modified");
        assertThat(store.get(nodes, null, "a")).isEqualTo(a2);
    }

    @Test
    void aWatchResumesAfterItsVersionAndAVersionOlderThanTheHistoryIsGone() throws ApiException {
        Store store = new Store(5);
        long first = Long.parseLong(Json.rv(store.create(nodes, node("n0"))));
        for (int i = 1; i < 20; i++) {
            store.create(nodes, node("n" + i));
        }
        long last = store.revision();
        Store.Watch w = store.watch(nodes, null, o -> true, last - 2);
        assertThat(w.queue).extracting(i -> i.object().path("metadata").path("name").asText())
                .containsExactly("n18", "n19");
        assertThatThrownBy(() -> store.watch(nodes, null, o -> true, first)).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(410))
                .hasMessageStartingWith("too old resource version: " + first);
    }

    @Test
    void listsUseTheLabelIndexAndStayInNameOrder() throws ApiException {
        Store store = new Store();
        for (String n : new String[] {"c", "a", "b"}) {
            ObjectNode o = node(n);
            ((ObjectNode) o.get("metadata")).putObject("labels").put("tier", n.equals("b") ? "back" : "front");
            store.create(nodes, o);
        }
        var snap = store.list(nodes, null, Map.of("tier", "front"), o -> true, null, 0);
        assertThat(snap.items()).extracting(o -> o.path("metadata").path("name").asText()).containsExactly("a", "c");
    }

    @Test
    void aWritesAnswerIsTheJsonOfItsWatchEventAndOnlyForTheObjectStored() throws Exception {
        Store store = new Store();
        Store.Watch w = store.watch(nodes, null, o -> true, store.revision());
        ObjectNode a = store.create(nodes, node("a"));
        byte[] answer = store.committedJson(a);
        assertThat(answer).isEqualTo(Json.MAPPER.writeValueAsBytes(a));
        Store.WatchItem item = w.queue.poll();
        assertThat(item.encoded().json()).isSameAs(answer);   // serialized once for the answer and the stream
        assertThat(store.committedJson(a)).as("forgotten once asked").isNull();
        ObjectNode b = store.create(nodes, node("b"));
        assertThat(store.committedJson(a)).as("not the last commit's object").isNull();
        ObjectNode copy = store.create(nodes, node("c")).deepCopy();
        assertThat(store.committedJson(copy)).as("an equal object is not the stored one").isNull();
        assertThat(Json.rv(b)).isNotEmpty();
    }

    @Test
    void anEventsBytesAreTheWatchLineKubeWrites() throws Exception {
        Store.Encoded encoded = new Store.Encoded(node("a"));
        for (String kind : new String[] {Store.ADDED, Store.MODIFIED, Store.DELETED, "BOOKMARK"}) {
            assertThat(Json.MAPPER.readTree(encoded.event(kind)))
                    .isEqualTo(WatchStream.event(kind, node("a")));
        }
        assertThat(encoded.event(Store.MODIFIED)).isSameAs(encoded.event(Store.MODIFIED));
    }
}
