package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import me.loutres.juneau.view.KubeObjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The routing table: which request goes to which endpoints, in the API server's calling order. */
class AdmissionRoutesTest {

    @ParameterizedTest(name = "{0} {1}/{2} [{3}] -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            CREATE |                   | services             | -      | /mutate/services /validate/services
            UPDATE |                   | services             | -      | /mutate/services /validate/services
            DELETE |                   | services             | -      |
            UPDATE |                   | services             | status |
            CREATE | apps              | services             | -      |
            DELETE | juneau.loutres.me | addresspools         | -      | /validate/addresspools
            UPDATE | juneau.loutres.me | addresspools         | status |
            UPDATE | juneau.loutres.me | serviceloadbalancers | status | /validate/serviceloadbalancers
            DELETE | juneau.loutres.me | arpadvertisements    | -      | /validate/arpadvertisements
            UPDATE | juneau.loutres.me | arpadvertisements    | status | /validate/arpadvertisements
            CREATE | juneau.loutres.me | pods                 | -      |
            """)
    void requestsGoToTheirEndpointsMutatingFirst(String operation, String group, String resource, String sub,
            String paths) {
        String expected = paths == null ? "" : paths;
        assertThat(String.join(" ", AdmissionRoutes.forRequest(group == null ? "" : group, resource, sub, operation)
                .stream().map(Endpoint::path).toList())).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}: mutate {2}, validate {3}")
    @CsvSource(delimiter = '|', textBlock = """
            managed                         | {"spec":{"type":"LoadBalancer","loadBalancerClass":"juneau.loutres.me/load-balancer"}}                                           | true  | true
            another class                   | {"spec":{"type":"LoadBalancer","loadBalancerClass":"example.com/lb"}}                                                            | false | false
            no class, Juneau annotation     | {"metadata":{"annotations":{"juneau.loutres.me/load-balancer-external-network":"x"}},"spec":{"type":"LoadBalancer"}}            | false | true
            ClusterIP, Juneau annotation    | {"metadata":{"annotations":{"juneau.loutres.me/x":""}},"spec":{"type":"ClusterIP","loadBalancerClass":"juneau.loutres.me/load-balancer"}} | false | true
            other annotations only          | {"metadata":{"annotations":{"example.com/juneau.loutres.me":"x"}},"spec":{"type":"LoadBalancer"}}                                 | false | false
            nothing                         | {}                                                                                                                                | false | false
            """)
    void theServiceWebhooksSeeWhatTheirMatchConditionsLetThrough(String name, String json, boolean mutate,
            boolean validate) throws Exception {
        JsonNode object = KubeObjects.mapper().readTree(json);
        assertThat(AdmissionRoutes.byPath("/mutate/services").orElseThrow().reach().test(object)).isEqualTo(mutate);
        assertThat(AdmissionRoutes.byPath("/validate/services").orElseThrow().reach().test(object)).isEqualTo(validate);
        assertThat(AdmissionRoutes.byPath("/validate/addresspools").orElseThrow().reach().test(object)).isTrue();
        assertThat(Endpoint.Reach.MANAGED_OR_ANNOTATED_SERVICES.test(null)).isFalse();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            the controller                     | system:serviceaccount:juneau-system:juneau-controller  | false | true
            a person                           | kubernetes-admin                                       | true  | true
            the node agent                     | system:serviceaccount:juneau-system:juneau-agent       | true  | true
            the garbage collector              | system:serviceaccount:kube-system:generic-garbage-collector | true | true
            another account of the same prefix | system:serviceaccount:juneau-system:juneau-controller2 | true  | true
            nobody known (juneau validate)     | -                                                      | true  | true
            """)
    void onlyTheControllersOwnServiceLoadBalancerWritesSkipTheWebhook(String who, String username,
            boolean slbReviewed, boolean arpReviewed) throws Exception {
        JsonNode slb = KubeObjects.mapper().readTree("{\"kind\":\"ServiceLoadBalancer\",\"metadata\":{\"name\":\"web\"}}");
        Endpoint slbs = AdmissionRoutes.byPath("/validate/serviceloadbalancers").orElseThrow();
        assertThat(slbs.reach().test(slb, username)).as("ServiceLoadBalancer write by %s", who).isEqualTo(slbReviewed);
        assertThat(slbs.reach().test(null, username)).as("ServiceLoadBalancer delete by %s", who).isEqualTo(slbReviewed);
        // advertisements carry content rules the controller's own writes must pass (docs/phases-and-conditions.md)
        assertThat(AdmissionRoutes.byPath("/validate/arpadvertisements").orElseThrow().reach().test(slb, username))
                .isEqualTo(arpReviewed);
    }

    @Test
    void everyRuleSetAnswersExactlyOneEndpoint() {
        assertThat(AdmissionRoutes.ALL).extracting(Endpoint::rules).containsExactlyInAnyOrder(Endpoint.Rules.values());
        assertThat(AdmissionRoutes.ALL).extracting(Endpoint::path).doesNotHaveDuplicates();
        assertThat(AdmissionRoutes.ALL).extracting(Endpoint::webhookName).doesNotHaveDuplicates();
        assertThat(AdmissionRoutes.byPath("/validate/serviceloadbalancers").orElseThrow().resources())
                .containsExactly("serviceloadbalancers", "serviceloadbalancers/status");
    }
}
