package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.plan.ServicePlanner;
import org.junit.jupiter.api.Test;

/** The verb a dependent chooses, desired against actual, with the ARPAdvertisement's match (no server). */
class DependentTest {
    private final Dependent<ARPAdvertisement> arps = new Dependent<>(null, null, ArpWriter.MATCH);

    private static ARPAdvertisement arp(String vip, String network, String node) {
        ARPAdvertisement a = ServicePlanner.advertisement("shop", "web", network, vip, node);
        a.getMetadata().setResourceVersion("7");
        return a;
    }

    @Test
    void absentIsCreatedAndUnwantedIsDeleted() {
        assertThat(arps.verb(null, arp("10.0.0.1", "net", "a"))).isEqualTo(Dependent.Verb.CREATE);
        assertThat(arps.verb(arp("10.0.0.1", "net", "a"), null)).isEqualTo(Dependent.Verb.DELETE);
        assertThat(arps.verb(null, null)).isEqualTo(Dependent.Verb.NONE);
    }

    @Test
    void theSameIsLeftAloneAnotherNodeIsPatchedAnImmutableFieldReplaces() {
        ARPAdvertisement actual = arp("10.0.0.1", "net", "a");
        assertThat(arps.verb(actual, arp("10.0.0.1", "net", "a"))).isEqualTo(Dependent.Verb.NONE);
        assertThat(arps.verb(actual, arp("10.0.0.1", "net", "b"))).isEqualTo(Dependent.Verb.PATCH);
        assertThat(arps.verb(actual, arp("10.0.0.2", "net", "b"))).isEqualTo(Dependent.Verb.REPLACE);
        assertThat(arps.verb(actual, arp("10.0.0.1", "other", "a"))).isEqualTo(Dependent.Verb.REPLACE);
        assertThat(Dependent.Verb.PATCH.writes()).isTrue();
        assertThat(Dependent.Verb.DELETE.writes()).isFalse();
    }

    @Test
    void theMovePatchCarriesTheVersionReadAndMovesTheLabelWithTheNode() {
        String patch = ArpWriter.MATCH.patch(arp("10.0.0.1", "net", "a"), arp("10.0.0.1", "net", "b"));

        assertThat(patch).isEqualTo("{\"metadata\":{\"resourceVersion\":\"7\",\"labels\":{\"juneau.loutres.me/node\":"
                + "\"b\"}},\"spec\":{\"nodeName\":\"b\"}}");
    }

    @Test
    void anAdvertisementWithoutTheServiceUidIsPatchedOnItsNodeToCarryIt() {
        ARPAdvertisement before = arp("10.0.0.1", "net", "a");
        ARPAdvertisement want = ServicePlanner.advertisement("shop", "web", "uid-1", "net", "10.0.0.1", "a");
        ARPAdvertisement labelled = ServicePlanner.advertisement("shop", "web", "uid-1", "net", "10.0.0.1", "a");

        assertThat(arps.verb(before, want)).isEqualTo(Dependent.Verb.PATCH);
        assertThat(arps.verb(labelled, want)).isEqualTo(Dependent.Verb.NONE);
        assertThat(arps.verb(labelled, arp("10.0.0.1", "net", "a"))).as("a plan without the uid removes nothing")
                .isEqualTo(Dependent.Verb.NONE);
        assertThat(ArpWriter.MATCH.patch(before, want)).isEqualTo("{\"metadata\":{\"resourceVersion\":\"7\","
                + "\"labels\":{\"juneau.loutres.me/node\":\"a\",\"juneau.loutres.me/service-uid\":\"uid-1\"}},"
                + "\"spec\":{\"nodeName\":\"a\"}}");
    }
}
