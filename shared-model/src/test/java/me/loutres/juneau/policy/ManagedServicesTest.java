package me.loutres.juneau.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one decision of which Services are Juneau's, with and without --manage-unclassed (docs/api-reference.md). */
class ManagedServicesTest {
    static final String OURS = JuneauConstants.LOAD_BALANCER_CLASS;
    static final ObjectMapper MAPPER = new ObjectMapper();

    /** type, class, managed without the flag, managed with it. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("LoadBalancer", OURS, true, true),
                Arguments.of("LoadBalancer", null, false, true),
                Arguments.of("LoadBalancer", "example.com/other", false, false),
                Arguments.of("LoadBalancer", OURS + "x", false, false),
                Arguments.of("LoadBalancer", "", false, false),
                Arguments.of("ClusterIP", OURS, false, false),
                Arguments.of("ClusterIP", null, false, false),
                Arguments.of("NodePort", null, false, false),
                Arguments.of("ExternalName", null, false, false),
                Arguments.of(null, OURS, false, false),
                Arguments.of(null, null, false, false),
                Arguments.of("loadbalancer", null, false, false));
    }

    @ParameterizedTest(name = "type {0}, class {1}: {2} / with the flag {3}")
    @MethodSource("table")
    void theFieldsTheTypedServiceAndTheJsonAllAgree(String type, String cls, boolean classed, boolean unclassed) {
        Service typed = new ServiceBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().withType(type).withLoadBalancerClass(cls).endSpec().build();
        Map<String, Object> spec = new HashMap<>();
        if (type != null) {
            spec.put("type", type);
        }
        if (cls != null) {
            spec.put("loadBalancerClass", cls);
        }
        var json = MAPPER.valueToTree(Map.of("metadata", Map.of("name", "web"), "spec", spec));
        for (var c : new Object[][] {{ManagedServices.CLASSED, classed}, {ManagedServices.UNCLASSED_TOO, unclassed}}) {
            ManagedServices m = (ManagedServices) c[0];
            boolean expected = (Boolean) c[1];
            assertThat(m.manages(type, cls)).as("%s fields", m).isEqualTo(expected);
            assertThat(m.manages(typed)).as("%s typed", m).isEqualTo(expected);
            assertThat(m.manages((com.fasterxml.jackson.databind.JsonNode) json)).as("%s json", m).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nothing")
    void nothingToJudgeIsNeverManaged(String what, Service s) {
        assertThat(ManagedServices.UNCLASSED_TOO.manages(s)).isFalse();
        assertThat(ManagedServices.CLASSED.manages(s)).isFalse();
    }

    static Stream<Arguments> nothing() {
        return Stream.of(Arguments.of("null", null), Arguments.of("no spec", new ServiceBuilder().build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flags")
    void ofTheFlagAndWhatItAccepts(boolean flag, ManagedServices expected, String accepted) {
        assertThat(ManagedServices.of(flag)).isEqualTo(expected);
        assertThat(expected.accepted()).isEqualTo(accepted);
        assertThat(expected.manages((com.fasterxml.jackson.databind.JsonNode) null)).isFalse();
    }

    static Stream<Arguments> flags() {
        return Stream.of(
                Arguments.of(false, ManagedServices.CLASSED,
                        "spec.type: LoadBalancer and spec.loadBalancerClass: juneau.loutres.me/load-balancer"),
                Arguments.of(true, ManagedServices.UNCLASSED_TOO,
                        "spec.type: LoadBalancer and spec.loadBalancerClass: juneau.loutres.me/load-balancer or no"
                                + " spec.loadBalancerClass"));
    }
}
