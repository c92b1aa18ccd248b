package me.loutres.juneau.agent.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import org.junit.jupiter.api.Test;

class FirstAnnouncementTest {
    static ARPAdvertisement adv(String name, ARPAdvertisementStatus status) {
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(new ObjectMetaBuilder().withName(name).build());
        a.setStatus(status);
        return a;
    }

    static ARPAdvertisementStatus status(String mac, String announcedAt, String condition, String reason) {
        ARPAdvertisementStatus s = new ARPAdvertisementStatus();
        s.setNode("node-b");
        s.setMacAddress(mac);
        s.setAnnouncedAt(announcedAt);
        s.setConditions(List.of(new ConditionBuilder().withType(JuneauConstants.CONDITION_ANNOUNCED)
                .withStatus(condition).withReason(reason).build()));
        return s;
    }

    @Test
    void aFreshAdvertisementIsProbed() {
        assertThat(FirstAnnouncement.mustProbe(adv("a", null))).isTrue();
    }

    @Test
    void oneAnnouncedByAnyNodeIsAFailoverAndIsNotProbed() {
        assertThat(FirstAnnouncement.mustProbe(adv("a", status("02:00:00:00:00:0b", "2026-01-01T00:00:00Z", "True",
                "Announced")))).isFalse();
        assertThat(FirstAnnouncement.mustProbe(adv("a", status(null, null, "True", "Announced"))))
                .as("Announced=True without announcedAt (written by hand)").isFalse();
        assertThat(FirstAnnouncement.mustProbe(adv("a", status("02:00:00:00:00:0b", "2026-01-01T00:00:00Z", "False",
                "AddressConflict")))).as("a conflict seen after the announcement").isFalse();
    }

    @Test
    void oneNeverAnnouncedIsProbedAgain() {
        assertThat(FirstAnnouncement.mustProbe(adv("a", status(null, null, "False", "AddressConflict")))).isTrue();
        assertThat(FirstAnnouncement.mustProbe(adv("a", status(null, null, "False", "InterfaceNotFound")))).isTrue();
    }

    @Test
    void theClusterMacsAreTheOnesTheStatusesName() {
        assertThat(FirstAnnouncement.clusterMacs(List.of(adv("a", status("02:00:00:00:00:0b", "t", "True", "Announced")),
                adv("b", null), adv("c", status("not-a-mac", "t", "True", "Announced")),
                adv("d", status(null, null, "False", "SocketError")))))
                .containsExactly(MacAddress.parse("02:00:00:00:00:0b"));
    }
}
