package me.loutres.juneau.agent.own;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OwnershipTest {
    static ARPAdvertisement arp(String name, String address, String specNode, String labelNode, boolean deleting) {
        ARPAdvertisement a = new ARPAdvertisement();
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name).withGeneration(3L)
                .addToLabels(JuneauConstants.LABEL_NODE, labelNode)
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, "default")
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, name.replace("slb-default-", ""));
        if (deleting) {
            meta.withDeletionTimestamp("2026-12-01T12:00:00Z");
        }
        a.setMetadata(meta.build());
        a.setSpec(new ARPAdvertisementSpec("l2", address, specNode));
        return a;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("its own advertisement", List.of(arp("slb-default-web", "198.18.0.100", "node-a", "node-a", false)),
                        Map.of("198.18.0.100", "slb-default-web")),
                Arguments.of("spec names another node though the label says us: not ours",
                        List.of(arp("slb-default-web", "198.18.0.100", "node-b", "node-a", false)), Map.of()),
                Arguments.of("being deleted: nobody answers",
                        List.of(arp("slb-default-web", "198.18.0.100", "node-a", "node-a", true)), Map.of()),
                Arguments.of("an address that does not parse is skipped, the rest kept",
                        List.of(arp("slb-default-bad", "198.18.0", "node-a", "node-a", false),
                                arp("slb-default-web", "198.18.0.100", "node-a", "node-a", false)),
                        Map.of("198.18.0.100", "slb-default-web")),
                Arguments.of("two objects with one address: the first name wins, the same on every node",
                        List.of(arp("slb-default-z", "198.18.0.100", "node-a", "node-a", false),
                                arp("slb-default-a", "198.18.0.100", "node-a", "node-a", false)),
                        Map.of("198.18.0.100", "slb-default-a")),
                Arguments.of("nothing", List.of(), Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void owns(String name, List<ARPAdvertisement> list, Map<String, String> expected) {
        Map<Long, Claim> owned = Ownership.of("node-a", list);

        assertThat(owned).hasSize(expected.size());
        expected.forEach((vip, adv) -> {
            Claim c = owned.get(Ipv4.parse(vip));
            assertThat(c.advertisement()).isEqualTo(adv);
            assertThat(c.generation()).isEqualTo(3L);
            assertThat(c.serviceNamespace()).isEqualTo("default");
            assertThat(c.serviceName()).isEqualTo(adv.replace("slb-default-", ""));
        });
    }

    @org.junit.jupiter.api.Test
    void theClaimCarriesTheServiceUidFromItsLabelAndNoneWithoutTheLabel() {
        ARPAdvertisement labelled = arp("slb-default-web", "198.18.0.100", "node-a", "node-a", false);
        labelled.getMetadata().getLabels().put(JuneauConstants.LABEL_SERVICE_UID, "uid-1");
        ARPAdvertisement older = arp("slb-default-old", "198.18.0.101", "node-a", "node-a", false);

        Map<Long, Claim> owned = Ownership.of("node-a", List.of(labelled, older));

        assertThat(owned.get(Ipv4.parse("198.18.0.100")).serviceUid()).isEqualTo("uid-1");
        assertThat(owned.get(Ipv4.parse("198.18.0.101")).serviceUid()).isNull();
    }

    static Stream<Arguments> invalidCases() {
        ARPAdvertisement noSpec = arp("slb-default-nospec", "198.18.0.1", "node-a", "node-a", false);
        noSpec.setSpec(null);
        ARPAdvertisement noNode = arp("slb-default-nonode", "198.18.0.1", null, "node-a", false);
        return Stream.of(
                Arguments.of("an address that does not parse", arp("slb-default-bad", "198.18.0", "node-a", "node-a",
                        false), "spec.address: \"198.18.0\" is not an IPv4 address"),
                Arguments.of("no address", arp("slb-default-none", null, "node-a", "node-a", false),
                        "spec.address: missing"),
                Arguments.of("no spec", noSpec, "spec: missing"),
                Arguments.of("no node", noNode, "spec.nodeName: missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidCases")
    void anAdvertisementThatCannotBeAnsweredIsNamedWithItsReason(String name, ARPAdvertisement a, String reason) {
        ARPAdvertisement good = arp("slb-default-web", "198.18.0.100", "node-a", "node-a", false);

        assertThat(Ownership.of("node-a", List.of(a, good))).containsOnlyKeys(Ipv4.parse("198.18.0.100"));
        assertThat(Ownership.invalid("node-a", List.of(a, good))).containsOnlyKeys(a.getMetadata().getName())
                .hasEntrySatisfying(a.getMetadata().getName(), m -> assertThat(m).startsWith(reason));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void anotherNodesOrADeletedAdvertisementIsNotInvalid(String name, List<ARPAdvertisement> list,
            Map<String, String> expected) {
        assertThat(Ownership.invalid("node-a", list.stream().filter(a -> Ipv4.isValid(a.getSpec().getAddress()))
                .toList())).isEmpty();
    }
}
