package me.loutres.juneau.runtime.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Each version of an object is read once, however often it is asked about (issue 12 item 1). */
class VersionMemoTest {
    static ConfigMap map(String name, String uid, String rv, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid(uid)
                .withResourceVersion(rv).endMetadata().addToData("v", value).build();
    }

    private final AtomicInteger readings = new AtomicInteger();

    private String read(ConfigMap m) {
        readings.incrementAndGet();
        return m.getData().get("v");
    }

    @Test
    void eachVersionIsReadOnceANewVersionOrUidIsReadAgain() {
        VersionMemo<String> memo = new VersionMemo<>();
        for (int i = 0; i < 5; i++) {
            // the same version as another instance (a relist) is no new reading either
            assertThat(memo.read(map("a", "u1", "1", "one"), this::read)).isEqualTo("one");
        }
        assertThat(readings).hasValue(1);
        assertThat(memo.read(map("a", "u1", "2", "two"), this::read)).isEqualTo("two");
        assertThat(memo.read(map("a", "u2", "2", "re-created"), this::read)).isEqualTo("re-created");
        assertThat(memo.reads()).isEqualTo(3);
    }

    @Test
    void aRememberedVersionIsNotReadAndAForgottenOneIsReadAgain() {
        VersionMemo<String> memo = new VersionMemo<>();
        ConfigMap written = map("a", "u1", "7", "ours");
        memo.remember(written, "trusted");
        assertThat(memo.read(map("a", "u1", "7", "ours"), this::read)).isEqualTo("trusted");
        assertThat(readings).hasValue(0);
        memo.forget(written);
        assertThat(memo.read(written, this::read)).isEqualTo("ours");
        assertThat(readings).hasValue(1);
    }

    @Test
    void anObjectWithoutAResourceVersionIsReadEachTime() {
        VersionMemo<String> memo = new VersionMemo<>();
        memo.read(map("a", "u1", null, "x"), this::read);
        memo.read(map("a", "u1", null, "x"), this::read);
        assertThat(readings).hasValue(2);
    }

    @Test
    void readAllReadsNewVersionsOnlyGivesTheEarlierReadingAndForgetsWhatIsGone() {
        VersionMemo<String> memo = new VersionMemo<>();
        List<String> earlier = new java.util.ArrayList<>();
        java.util.function.BiFunction<ConfigMap, String, String> reader = (m, before) -> {
            earlier.add(before);
            return read(m);
        };
        assertThat(memo.readAll(List.of(map("a", "u1", "1", "a1"), map("b", "u2", "1", "b1")), reader))
                .containsExactly(java.util.Map.entry("ns/a", "a1"), java.util.Map.entry("ns/b", "b1"));
        assertThat(memo.readAll(List.of(map("a", "u1", "2", "a2"), map("b", "u2", "1", "b1")), reader))
                .containsEntry("ns/a", "a2").containsEntry("ns/b", "b1");
        assertThat(readings).as("b's version was read once").hasValue(3);
        assertThat(earlier).containsExactly(null, null, "a1");

        memo.readAll(List.of(map("a", "u1", "2", "a2")), reader);
        memo.readAll(List.of(map("a", "u1", "2", "a2"), map("b", "u2", "1", "b1")), reader);
        assertThat(readings).as("b was forgotten when it was gone").hasValue(4);
        assertThat(earlier.get(3)).isNull();
    }
}
