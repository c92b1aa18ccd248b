package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of the rule table, reviewed through a counting view: no rule asks a question whose cost grows with a
 * whole kind (docs/admission.md, "Cost of a review"), and the list of names a denial may give is read only for a
 * denial. The verdict is the one the table expects, so the indexed answers are the walks' answers.
 */
class IndexedReviewTest {

    static Stream<AdmissionRulesTest.Case> cases() {
        return AdmissionRulesTest.cases().map(a -> (AdmissionRulesTest.Case) a.get()[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void noRuleWalksAWholeKind(AdmissionRulesTest.Case c) {
        CountingClusterView view = new CountingClusterView(c.view().get());
        AdmissionRequest request = c.request().get().build();

        AdmissionResponse response = AdmissionRulesTest.ENGINE.review(c.path(), request, view);

        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        for (String method : CountingClusterView.WHOLE_KIND) {
            assertThat(view.calls(method)).as(method + "() during the review").isZero();
        }
        if (c.allowed()) {
            assertThat(view.calls("names")).as("names() during an allowed review").isZero();
        }
    }

    /** The default network is an indexed question too (ClusterView.defaultNetworks), never a walk of the networks. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("me.loutres.juneau.admission.UnclassedServicesAdmissionTest#cases")
    void theDefaultNetworkIsLookedUpNotWalked(UnclassedServicesAdmissionTest.Case c) {
        CountingClusterView view = new CountingClusterView(c.view());
        AdmissionResponse response = c.engine().review(c.path(), c.request().build(), view);

        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        for (String method : CountingClusterView.WHOLE_KIND) {
            assertThat(view.calls(method)).as(method + "() during the review").isZero();
        }
    }

    static Stream<BgpAdmissionRulesTest.Case> bgpCases() {
        return BgpAdmissionRulesTest.cases().map(a -> (BgpAdmissionRulesTest.Case) a.get()[0]);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bgpCases")
    void noBgpRuleWalksAWholeKind(BgpAdmissionRulesTest.Case c) {
        CountingClusterView view = new CountingClusterView(BgpAdmissionRulesTest.cluster());
        AdmissionRequest request = c.request().get().build();

        AdmissionResponse response = BgpAdmissionRulesTest.ENGINE.review(c.path(), request, view);

        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        for (String method : CountingClusterView.WHOLE_KIND) {
            assertThat(view.calls(method)).as(method + "() during the review").isZero();
        }
    }
}
