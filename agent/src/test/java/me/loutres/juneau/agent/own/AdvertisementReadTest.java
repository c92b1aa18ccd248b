package me.loutres.juneau.agent.own;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading one ARPAdvertisement as delivered: null is absent, a damaged one is a one-line problem, never a throw. */
class AdvertisementReadTest {
    static GenericKubernetesResource raw(String specAndStatus) {
        return Serialization.unmarshal("{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ARPAdvertisement\","
                + "\"metadata\":{\"name\":\"adv\",\"resourceVersion\":\"7\",\"labels\":{\"juneau.loutres.me/node\":"
                + "\"node-a\"}}" + specAndStatus + "}", GenericKubernetesResource.class);
    }

    static Stream<Arguments> readable() {
        return Stream.of(
                Arguments.of("a clean one", ",\"spec\":{\"externalNetwork\":\"l2\",\"address\":\"198.18.0.100\","
                        + "\"nodeName\":\"node-a\"}", "198.18.0.100"),
                Arguments.of("null fields are absent", ",\"spec\":{\"externalNetwork\":null,"
                        + "\"address\":\"198.18.0.100\"," + "\"nodeName\":\"node-a\"},\"status\":null", "198.18.0.100"),
                Arguments.of("a damaged status is dropped (the agent writes it again), the spec still counts",
                        ",\"spec\":{\"address\":\"198.18.0.100\",\"nodeName\":\"node-a\"},\"status\":{\"conditions\":"
                                + "\"yes\"}", "198.18.0.100"),
                Arguments.of("spec null: readable, without a spec", ",\"spec\":null", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readable")
    void reads(String name, String body, String address) {
        AdvertisementRead r = AdvertisementRead.of(raw(body));

        assertThat(r.readable()).isTrue();
        assertThat(r.problem()).isNull();
        assertThat(r.name()).isEqualTo("adv");
        assertThat(r.resourceVersion()).isEqualTo("7");
        assertThat(r.advertisement().getSpec() == null ? null : r.advertisement().getSpec().getAddress())
                .isEqualTo(address);
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                Arguments.of("an object where the address goes",
                        ",\"spec\":{\"address\":{\"octets\":[198,18,0,1]},\"nodeName\":\"node-a\"}",
                        "spec.address: an object has the wrong type for ARPAdvertisement; expected a string"),
                Arguments.of("a list where the spec goes", ",\"spec\":[1,2]", "spec: a list has the wrong type"),
                Arguments.of("a string where the spec goes", ",\"spec\":\"198.18.0.1\"",
                        "spec: \"198.18.0.1\" has the wrong type"),
                Arguments.of("an unknown field", ",\"spec\":{\"address\":\"198.18.0.1\",\"nodeNmae\":\"node-a\"}",
                        "spec.nodeNmae: unknown field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void namesTheFieldAndValueOfWhatCannotBeRead(String name, String body, String problem) {
        AdvertisementRead r = AdvertisementRead.of(raw(body));

        assertThat(r.readable()).isFalse();
        assertThat(r.name()).isEqualTo("adv");
        assertThat(r.problem()).startsWith(problem).doesNotContain("\n").doesNotContain("Exception");
    }
}
