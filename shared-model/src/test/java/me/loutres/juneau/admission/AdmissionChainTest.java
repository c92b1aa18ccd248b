package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.view.KubeObjects;
import org.junit.jupiter.api.Test;

/** The one admission chain of the local API server's gate and of validate: reach, patches in order, first denial. */
class AdmissionChainTest {
    private static final List<Endpoint> SERVICE_HOOKS = AdmissionRoutes.forResource("services");

    private static ObjectNode service(String lbClass) {
        ObjectNode svc = KubeObjects.mapper().createObjectNode();
        svc.putObject("metadata").put("name", "web").put("namespace", "default");
        ObjectNode spec = svc.putObject("spec").put("type", "LoadBalancer");
        if (lbClass != null) {
            spec.put("loadBalancerClass", lbClass);
        }
        return svc;
    }

    private static String patch(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theMutatingPatchIsAppliedBeforeTheValidatingEndpointSeesTheObject() {
        List<JsonNode> seen = new ArrayList<>();
        AdmissionChain.Outcome out = AdmissionChain.run(SERVICE_HOOKS, service(JuneauConstants.LOAD_BALANCER_CLASS),
                null, "alice", ManagedServices.CLASSED, (endpoint, current) -> {
                    seen.add(current);
                    return endpoint.mutating()
                            ? new AdmissionChain.Answer(true, 200, "", List.of("defaulted"),
                                    patch("[{\"op\":\"add\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]"))
                            : new AdmissionChain.Answer(true, 200, "", List.of("checked"), null);
                });
        assertThat(SERVICE_HOOKS.get(0).mutating()).isTrue();
        assertThat(seen).hasSize(SERVICE_HOOKS.size());
        assertThat(seen.get(seen.size() - 1).path("spec").path("externalTrafficPolicy").asText()).isEqualTo("Local");
        assertThat(out).isInstanceOf(AdmissionChain.Admitted.class);
        assertThat(((AdmissionChain.Admitted) out).object().path("spec").path("externalTrafficPolicy").asText())
                .isEqualTo("Local");
        assertThat(out.warnings()).startsWith("defaulted").contains("checked");
    }

    @Test
    void anObjectTheMatchConditionsKeepAwayReachesNoServiceEndpoint() {
        List<Endpoint> called = new ArrayList<>();
        AdmissionChain.Outcome out = AdmissionChain.run(SERVICE_HOOKS, service("other.example/lb"), null, "alice",
                ManagedServices.CLASSED, (endpoint, current) -> {
                    called.add(endpoint);
                    return new AdmissionChain.Answer(false, 403, "never", List.of(), null);
                });
        assertThat(called).isEmpty();
        assertThat(out).isInstanceOf(AdmissionChain.Admitted.class);
    }

    @Test
    void anUpdateAwayFromOurClassIsStillReviewedThroughTheOldObject() {
        List<Endpoint> called = new ArrayList<>();
        AdmissionChain.run(SERVICE_HOOKS, service("other.example/lb"), service(JuneauConstants.LOAD_BALANCER_CLASS),
                "alice", ManagedServices.CLASSED, (endpoint, current) -> {
                    called.add(endpoint);
                    return new AdmissionChain.Answer(true, 200, "", List.of(), null);
                });
        assertThat(called).isNotEmpty();
    }

    @Test
    void theFirstDenialEndsTheChainWithItsCodeMessageAndTheWarningsSoFar() {
        List<Endpoint> called = new ArrayList<>();
        AdmissionChain.Outcome out = AdmissionChain.run(SERVICE_HOOKS, service(JuneauConstants.LOAD_BALANCER_CLASS),
                null, "alice", ManagedServices.CLASSED, (endpoint, current) -> {
                    called.add(endpoint);
                    return new AdmissionChain.Answer(false, 422, "spec.x: bad", List.of("first"), null);
                });
        assertThat(called).hasSize(1);
        assertThat(out).isInstanceOfSatisfying(AdmissionChain.Denied.class, d -> {
            assertThat(d.code()).isEqualTo(422);
            assertThat(d.message()).isEqualTo("spec.x: bad");
            assertThat(d.endpoint()).isEqualTo(SERVICE_HOOKS.get(0));
        });
        assertThat(out.warnings()).containsExactly("first");
    }

    @Test
    void aPatchThatCannotApplyIsSaidNotSkipped() {
        AdmissionChain.Outcome out = AdmissionChain.run(SERVICE_HOOKS, service(JuneauConstants.LOAD_BALANCER_CLASS),
                null, "alice", ManagedServices.CLASSED, (endpoint, current) -> new AdmissionChain.Answer(true, 200, "", List.of(),
                        patch("[{\"op\":\"replace\",\"path\":\"/metadata/annotations/missing\",\"value\":\"x\"}]")));
        assertThat(out).isInstanceOfSatisfying(AdmissionChain.UnusablePatch.class,
                u -> assertThat(u.problem()).contains("cannot be applied"));
    }
}
