package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.admission.AdmissionRoutes;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import org.junit.jupiter.api.Test;

/**
 * manifests/overlays/default-class (docs/install.md, "Unclassed Services and the default network"): the default
 * install with --manage-unclassed on the controller and the webhook, and Service webhooks that send unclassed
 * LoadBalancer Services to the webhook, so admission and the controller take the same Services.
 */
class DefaultClassOverlayTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final Set<String> CHANGED = Set.of("Deployment/juneau-controller", "Deployment/juneau-webhook",
            "ValidatingWebhookConfiguration/" + JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION,
            "MutatingWebhookConfiguration/" + JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION);

    static String id(JsonNode o) {
        return o.path("kind").asText() + "/" + o.path("metadata").path("name").asText();
    }

    @Test
    void theControllerAndTheWebhookBothGetTheFlagAndNothingElseOfTheirPodsChanges() {
        Install base = Install.certManager();
        Install overlay = Install.defaultClass();
        for (String name : List.of("juneau-controller", "juneau-webhook")) {
            JsonNode before = base.get("Deployment", name);
            JsonNode after = overlay.get("Deployment", name);
            List<String> args = KustomizeRenderTest.texts(container(after).path("args"));
            List<String> expected = new ArrayList<>(KustomizeRenderTest.texts(container(before).path("args")));
            expected.add("--manage-unclassed");
            assertThat(args).as("args of %s", name).containsExactlyElementsOf(expected);
            ((com.fasterxml.jackson.databind.node.ObjectNode) container(after)).set("args", container(before).path("args"));
            assertThat(after).as("Deployment %s apart from the flag", name).isEqualTo(before);
        }
    }

    @Test
    void everyOtherObjectIsTheDefaultInstallsOwn() {
        Install base = Install.certManager();
        Install overlay = Install.defaultClass();
        assertThat(overlay.objects().stream().map(DefaultClassOverlayTest::id).toList())
                .containsExactlyInAnyOrderElementsOf(base.objects().stream().map(DefaultClassOverlayTest::id).toList());
        for (JsonNode o : base.objects()) {
            if (!CHANGED.contains(id(o))) {
                assertThat(overlay.get(o.path("kind").asText(), o.path("metadata").path("name").asText()))
                        .as("%s", id(o)).isEqualTo(o);
            }
        }
    }

    /**
     * The overlay's Service webhooks let through exactly what the shared decision with --manage-unclassed says
     * (Endpoint.Reach over ManagedServices.UNCLASSED_TOO), checked with a real CEL engine; the other webhooks are
     * untouched.
     */
    @Test
    void theServiceWebhooksSendUnclassedLoadBalancerServicesAndNoOtherClass() {
        int services = 0;
        for (WebhookConfigurationTest.Hook h : WebhookConfigurationTest.hooks(Install.defaultClass())) {
            Endpoint e = AdmissionRoutes.ALL.stream().filter(x -> x.webhookName().equals(h.name())).findFirst()
                    .orElseThrow();
            if (!e.resource().equals("services")) {
                continue;
            }
            services++;
            assertThat(h.webhook().path("matchConditions").size()).isEqualTo(1);
            String cel = h.webhook().path("matchConditions").get(0).path("expression").asText();
            for (Map<String, Object> svc : WebhookConfigurationTest.sampleServices()) {
                for (String operation : List.of("CREATE", "UPDATE")) {
                    assertThat(MatchConditions.evaluate(cel, svc, operation)).as("%s on %s %s", h, operation, svc)
                            .isEqualTo(e.reach().test(MAPPER.valueToTree(svc), ManagedServices.UNCLASSED_TOO));
                }
            }
            assertThat(MatchConditions.evaluate(cel, MatchConditions.service("LoadBalancer", null), "CREATE"))
                    .as("%s sends an unclassed LoadBalancer Service", h).isTrue();
            assertThat(MatchConditions.evaluate(cel, MatchConditions.service("LoadBalancer", "example.com/other"),
                    "CREATE")).as("%s leaves another class alone", h).isFalse();
            assertThat(MatchConditions.evaluate(cel, MatchConditions.service("ClusterIP", null), "CREATE"))
                    .as("%s leaves a ClusterIP Service alone", h).isFalse();
            assertThat(MatchConditions.evaluate(cel, null, "DELETE")).isFalse();
        }
        assertThat(services).isEqualTo(2);
    }

    private static JsonNode container(JsonNode deployment) {
        return deployment.path("spec").path("template").path("spec").path("containers").get(0);
    }
}
