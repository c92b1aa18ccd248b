package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;

/** The warnings for a managed Service's annotations that Juneau does not read (docs/admission.md, "Warnings"). */
class ServiceAnnotationHintsTest {
    @Test
    void ourTwoAnnotationsAndOtherPrefixesAreNotWarnedOf() {
        assertThat(ServiceAnnotationHints.of(List.of(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK,
                JuneauConstants.ANNOTATION_REQUESTED_IP, "example.com/juneau.loutres.me", "team"))).isEmpty();
    }

    @Test
    void anUnknownKeyOfOursNamesTheNearestRealOne() {
        assertThat(ServiceAnnotationHints.of(List.of("juneau.loutres.me/load-balancer-external-netwrok")))
                .singleElement().asString()
                .startsWith("annotation juneau.loutres.me/load-balancer-external-netwrok is not one Juneau reads")
                .contains("did you mean juneau.loutres.me/load-balancer-external-network?");
        assertThat(ServiceAnnotationHints.of(List.of("juneau.loutres.me/requested-ip"))).singleElement().asString()
                .contains("did you mean juneau.loutres.me/load-balancer-requested-ip?");
    }

    @Test
    void theDefaultNetworkMarkOnAServiceSaysWhereItBelongs() {
        assertThat(ServiceAnnotationHints.of(List.of(JuneauConstants.ANNOTATION_DEFAULT_NETWORK))).singleElement()
                .asString().contains("belongs on one", JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
    }

    @Test
    void metalLbsAnnotationsUnderBothPrefixesNameJuneausEquivalent() {
        List<String> warnings = ServiceAnnotationHints.of(List.of("metallb.universe.tf/address-pool",
                "metallb.io/loadBalancerIPs", "metallb.universe.tf/allow-shared-ip", "metallb.io/something-new"));
        assertThat(warnings).hasSize(4);
        assertThat(warnings.get(0)).startsWith("annotation metallb.io/loadBalancerIPs is MetalLB's")
                .contains(JuneauConstants.ANNOTATION_REQUESTED_IP);
        assertThat(warnings.get(1)).startsWith("annotation metallb.io/something-new is MetalLB's")
                .contains(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, JuneauConstants.ANNOTATION_REQUESTED_IP);
        assertThat(warnings.get(2)).startsWith("annotation metallb.universe.tf/address-pool")
                .contains(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
        assertThat(warnings.get(3)).startsWith("annotation metallb.universe.tf/allow-shared-ip")
                .contains("no equivalent");
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(ServiceAnnotationHints.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(ServiceAnnotationHints.distance("", "abc")).isEqualTo(3);
        assertThat(ServiceAnnotationHints.distance("same", "same")).isZero();
    }
}
