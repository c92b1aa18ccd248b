package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import org.junit.jupiter.api.Test;

/** How the agent reads its BGP kinds one object at a time (docs/bgp.md, "Objects the agent cannot read"). */
class KindReadsTest {
    final KindReads<BGPPeer> reads = new KindReads<>(BGPPeer.class, "BGPPeer");

    static GenericKubernetesResource peer(String name, String uid, String version, String spec) {
        return Serialization.unmarshal("{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"BGPPeer\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + version
                + "\"},\"spec\":" + spec + "}", GenericKubernetesResource.class);
    }

    static final String GOOD = "{\"peerAddress\":\"198.18.0.1\",\"peerASN\":65000,\"myASN\":65001}";
    static final String WRONG_TYPE = "{\"peerAddress\":\"198.18.0.1\",\"peerASN\":\"sixty-five\",\"myASN\":65001}";

    @Test
    void aMalformedObjectIsSkippedAndNamedWhileTheOthersAreRead() {
        List<KindReads.Unreadable> fresh = reads.update(List.of(peer("tor", "u1", "1", GOOD),
                peer("bad", "u2", "1", WRONG_TYPE)));

        assertThat(reads.usable()).extracting(p -> p.getMetadata().getName()).containsExactly("tor");
        assertThat(fresh).singleElement().satisfies(u -> {
            assertThat(u.key()).isEqualTo("bad");
            assertThat(u.problem()).contains("spec.peerASN").contains("sixty-five");
            assertThat(u.keptEarlier()).isFalse();
        });
        assertThat(reads.unreadable()).containsOnlyKeys("bad");
        assertThat(reads.unknown()).containsExactly("bad");
    }

    @Test
    void eachVersionIsReadAndNamedOnce() {
        reads.update(List.of(peer("tor", "u1", "1", GOOD), peer("bad", "u2", "1", WRONG_TYPE)));
        BGPPeer first = reads.usable().get(0);

        List<KindReads.Unreadable> again = reads.update(List.of(peer("tor", "u1", "1", GOOD),
                peer("bad", "u2", "1", WRONG_TYPE)));

        assertThat(again).as("the same versions: nothing new to say").isEmpty();
        assertThat(reads.usable().get(0)).as("not read again").isSameAs(first);
        assertThat(reads.update(List.of(peer("tor", "u1", "1", GOOD), peer("bad", "u2", "2", WRONG_TYPE))))
                .as("a new version that still cannot be read is said again").hasSize(1);
    }

    @Test
    void aDamagedVersionOfAReadableObjectKeepsTheLastReadableOne() {
        reads.update(List.of(peer("tor", "u1", "1", GOOD)));

        List<KindReads.Unreadable> fresh = reads.update(List.of(peer("tor", "u1", "2", WRONG_TYPE)));

        assertThat(fresh).singleElement().satisfies(u -> assertThat(u.keptEarlier()).isTrue());
        assertThat(reads.usable()).singleElement().satisfies(p -> {
            assertThat(p.getMetadata().getResourceVersion()).isEqualTo("1");
            assertThat(p.getSpec().getPeerASN()).isEqualTo(65000L);
        });
        assertThat(reads.unreadable()).containsOnlyKeys("tor");
        assertThat(reads.unknown()).as("an earlier version stands in").isEmpty();

        // repaired: the new version is used and nothing is unreadable any more
        reads.update(List.of(peer("tor", "u1", "3", GOOD.replace("65000", "65010"))));
        assertThat(reads.usable()).singleElement().satisfies(p -> assertThat(p.getSpec().getPeerASN())
                .isEqualTo(65010L));
        assertThat(reads.unreadable()).isEmpty();
    }

    @Test
    void anotherObjectUnderTheSameNameInheritsNothing() {
        reads.update(List.of(peer("tor", "u1", "1", GOOD)));

        reads.update(List.of(peer("tor", "u9", "5", WRONG_TYPE)));

        assertThat(reads.usable()).as("deleted and made again, damaged: nothing of the old one").isEmpty();
        assertThat(reads.unknown()).containsExactly("tor");
    }

    @Test
    void aDeletedObjectIsForgotten() {
        reads.update(List.of(peer("tor", "u1", "1", GOOD), peer("bad", "u2", "1", WRONG_TYPE)));

        reads.update(List.of());

        assertThat(reads.usable()).isEmpty();
        assertThat(reads.unreadable()).isEmpty();
    }

    @Test
    void aNamespacedObjectIsKeyedByNamespaceAndName() {
        assertThat(KindReads.key(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace("shop")
                .withName("web").build())).isEqualTo("shop/web");
        assertThat(KindReads.key(null)).isEmpty();
    }
}
