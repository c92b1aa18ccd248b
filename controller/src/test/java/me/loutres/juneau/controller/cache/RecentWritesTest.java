package me.loutres.juneau.controller.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecentWritesTest {

    private static ConfigMap at(String rv) {
        return new ConfigMapBuilder().withNewMetadata().withName("x").withResourceVersion(rv).endMetadata().build();
    }

    @Test
    void theWrittenVersionIsReadUntilTheInformerDeliversItOrANewerOne() {
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        ConfigMap cached = at("5");
        assertThat(w.read("x", cached)).isSameAs(cached);

        ConfigMap written = at("7");
        w.wrote("x", written);
        assertThat(w.read("x", cached)).isSameAs(written);

        w.observed("x", at("6"));           // an older event still on its way: keep ours
        assertThat(w.read("x", at("6"))).isSameAs(written);

        ConfigMap seen = at("7");
        w.observed("x", seen);
        assertThat(w.read("x", seen)).isSameAs(seen);
        assertThat(w.size()).isZero();
    }

    @Test
    void forgetAndAnObjectWithoutVersionLeaveNothingBehind() {
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        w.wrote("x", at("3"));
        w.forget("x");
        assertThat(w.size()).isZero();
        w.wrote("x", at(null));
        w.wrote("x", null);
        assertThat(w.size()).isZero();
    }

    @Test
    void aWriteWhoseEventOvertookTheResponseLeavesNothingBehind() {
        // the informer already holds our version (or a newer one) when the response is handled
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> at("8"));
        w.wrote("x", at("7"));
        w.wrote("x", at("8"));
        assertThat(w.size()).isZero();
        w.wrote("x", at("9"));
        assertThat(w.size()).isEqualTo(1);
    }

    @Test
    void theFinalObjectOfADeletionIsNeverKept() {
        // kube-apiserver answers the update that removes the last finalizer with the final object, while the
        // DELETED event may already have emptied the cache: keeping it would shadow a re-created object forever
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        w.wrote("x", at("4"));
        ConfigMap last = at("5");
        last.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        w.wrote("x", last);
        assertThat(w.size()).isZero();
        ConfigMap stillFinalized = at("6");
        stillFinalized.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
        stillFinalized.getMetadata().setFinalizers(java.util.List.of("example.com/hold"));
        w.wrote("x", stillFinalized);
        assertThat(w.size()).isEqualTo(1);
    }

    @Test
    void theEchoOfOurWriteAndOlderVersionsAreToldApartFromAnyoneElsesNewerVersion() {
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        assertThat(w.observed("x", at("3"))).as("nothing written: anyone's").isFalse();

        w.wrote("x", at("7"));
        assertThat(w.observed("x", at("6"))).as("the create before our status write").isTrue();
        assertThat(w.size()).isEqualTo(1);
        assertThat(w.observed("x", at("7"))).as("our write itself").isTrue();
        assertThat(w.size()).isZero();
        assertThat(w.observed("x", at("7"))).as("delivered again after the entry went").isFalse();

        w.wrote("x", at("9"));
        assertThat(w.observed("x", at("10"))).as("someone wrote after us").isFalse();
        assertThat(w.size()).isZero();
    }

    @Test
    void anEventThatComesBeforeTheWritesAnswerWaitsForItAndIsDroppedWhenItIsTheEcho() {
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        java.util.List<String> routed = new java.util.ArrayList<>();

        w.writing("x");
        w.delivered("x", at("7"), () -> routed.add("7"));
        assertThat(routed).as("held while the write is on its way").isEmpty();
        w.wrote("x", at("7"));
        assertThat(routed).as("it was the echo").isEmpty();

        w.writing("x");
        w.delivered("x", at("8"), () -> routed.add("8"));
        w.delivered("x", at("9"), () -> routed.add("9"));
        w.wrote("x", at("8"));
        assertThat(routed).as("9 is someone else's, routed once ours is answered").containsExactly("9");

        w.writing("x");
        w.delivered("x", at("10"), () -> routed.add("10"));
        w.wrote("x", null);
        assertThat(routed).as("a failed write holds nothing back").containsExactly("9", "10");

        w.delivered("y", at("3"), () -> routed.add("y3"));
        assertThat(routed).as("no write of the key: routed at once").endsWith("y3");
    }

    @Test
    void heldEventsWaitForEveryWriteOfTheKeyOnItsWay() {
        RecentWrites<ConfigMap> w = new RecentWrites<>(k -> null);
        java.util.List<String> routed = new java.util.ArrayList<>();
        w.writing("x");
        w.writing("x");
        w.delivered("x", at("5"), () -> routed.add("5"));
        w.delivered("x", at("6"), () -> routed.add("6"));
        w.wrote("x", at("5"));
        assertThat(routed).isEmpty();
        w.wrote("x", at("6"));
        assertThat(routed).isEmpty();
        w.delivered("x", at("7"), () -> routed.add("7"));
        assertThat(routed).containsExactly("7");
    }

    @ParameterizedTest(name = "seen {0}, ours {1}: not newer = {2}")
    @CsvSource({"7, 7, true", "6, 7, true", "8, 7, false", "9, 10, true", "10, 9, false", "abc, abc, true",
            "abc, 7, false", "7, xyz, false"})
    void anEchoIsOnlyTrustedForEqualOrComparableVersions(String seen, String ours, boolean notNewer) {
        assertThat(RecentWrites.notNewer(seen, ours)).isEqualTo(notNewer);
    }

    @ParameterizedTest(name = "seen {0}, ours {1}: caught up = {2}")
    @CsvSource({"7, 7, true", "8, 7, true", "6, 7, false", "10, 9, true", "9, 10, false",
            "abc, 7, true", "7, xyz, true"})
    void versionsCompareAsNumbersAndAnythingElseEndsTheEntry(String seen, String ours, boolean caughtUp) {
        assertThat(RecentWrites.caughtUp(seen, ours)).isEqualTo(caughtUp);
    }
}
