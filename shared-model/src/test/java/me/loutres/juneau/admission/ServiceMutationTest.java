package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.view.KubeObjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** docs/admission.md: the JSONPatch of the mutating webhook, and validation of the object after that patch. */
class ServiceMutationTest {
    static final AdmissionEngine ENGINE = new AdmissionEngine(AdmissionSettings.defaults());
    static final String WARNING = "spec.externalTrafficPolicy was set to Local (it was Cluster, the API server's default when it is omitted): "
            + "Juneau announces a VIP only from nodes with a local ready backend; write externalTrafficPolicy: Local in the manifest to stop seeing this warning (and the drift GitOps tools show, docs/ci.md)";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("CREATE with Cluster is set to Local with a warning", Requests.service("CREATE").object(svc("a").policy("Cluster").yaml()),
                        "[{\"op\":\"replace\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]", List.of(WARNING)),
                Arguments.of("CREATE without a policy gets Local", Requests.service("CREATE").object(svc("a").policy(null).yaml()),
                        "[{\"op\":\"add\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]",
                        List.of(WARNING.replace("it was Cluster, the API server's default when it is omitted", "it was not set"))),
                Arguments.of("annotations are trimmed", Requests.service("CREATE").object(svc("a").net(" public\t").ip(" 192.0.2.10").yaml()),
                        "[{\"op\":\"replace\",\"path\":\"/metadata/annotations/juneau.loutres.me~1load-balancer-external-network\",\"value\":\"public\"},"
                                + "{\"op\":\"replace\",\"path\":\"/metadata/annotations/juneau.loutres.me~1load-balancer-requested-ip\",\"value\":\"192.0.2.10\"}]",
                        List.of()),
                Arguments.of("UPDATE with Cluster (a replace without the field) is set to Local with a warning, and trimmed",
                        Requests.service("UPDATE").oldObject(svc("a").yaml()).object(svc("a").policy("Cluster").ip("192.0.2.10 ").yaml()),
                        "[{\"op\":\"replace\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"},"
                                + "{\"op\":\"replace\",\"path\":\"/metadata/annotations/juneau.loutres.me~1load-balancer-requested-ip\",\"value\":\"192.0.2.10\"}]",
                        List.of(WARNING)),
                Arguments.of("UPDATE without a policy gets Local", Requests.service("UPDATE").oldObject(svc("a").yaml())
                                .object(svc("a").policy(null).yaml()),
                        "[{\"op\":\"add\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]",
                        List.of(WARNING.replace("it was Cluster, the API server's default when it is omitted", "it was not set"))),
                Arguments.of("UPDATE with Local: no patch", Requests.service("UPDATE").oldObject(svc("a").policy("Cluster").yaml())
                        .object(svc("a").yaml()), null, List.of()),
                Arguments.of("nothing to change: no patch", Requests.service("CREATE").object(svc("a").yaml()), null, List.of()),
                Arguments.of("unmanaged Services are never patched", Requests.service("CREATE")
                        .object(svc("a").type("ClusterIP").policy("Cluster").net(" x ").yaml()), null, List.of()),
                Arguments.of("another class is never patched", Requests.service("CREATE")
                        .object(svc("a").lbClass("example.com/other").policy("Cluster").net(" x ").yaml()), null, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void patch(String name, Requests requests, String expectedPatch, List<String> warnings) {
        AdmissionRequest request = requests.build();
        AdmissionResponse response = ENGINE.review("/mutate/services", request, Fixtures.cluster());

        assertThat(response.getAllowed()).isTrue();
        assertThat(response.getUid()).isEqualTo(request.getUid());
        if (expectedPatch == null) {
            assertThat(response.getPatch()).isNull();
            assertThat(response.getPatchType()).isNull();
        } else {
            assertThat(response.getPatchType()).isEqualTo("JSONPatch");
            assertThat(new String(Base64.getDecoder().decode(response.getPatch()), StandardCharsets.UTF_8)).isEqualTo(expectedPatch);
        }
        assertThat(response.getWarnings() == null ? List.of() : response.getWarnings()).isEqualTo(warnings);
    }

    @Test
    void validationAfterThePatchAcceptsWhatTheMutationFixed() {
        JsonNode original = Requests.yaml(svc("a").policy("Cluster").net(" public ").yaml());
        AdmissionResponse mutated = ENGINE.review("/mutate/services",
                Requests.service("CREATE").object(svc("a").policy("Cluster").net(" public ").yaml()).build(), Fixtures.cluster());
        JsonNode patched = JsonPatch.apply(original, mutated.getPatch());

        assertThat(patched.path("spec").path("externalTrafficPolicy").asText()).isEqualTo("Local");
        assertThat(original.path("spec").path("externalTrafficPolicy").asText()).as("the original is not changed").isEqualTo("Cluster");
        AdmissionResponse validated = ENGINE.review("/validate/services",
                Requests.service("CREATE").set("object", patched).build(), Fixtures.cluster());
        assertThat(validated.getAllowed()).isTrue();
        assertThat(KubeObjects.tree(patched).path("metadata").path("annotations")
                .path("juneau.loutres.me/load-balancer-external-network").asText()).isEqualTo("public");
    }
}
