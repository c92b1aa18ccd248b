package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionRoutes;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The webhook configurations call exactly the endpoints of the routing table (AdmissionRoutes.ALL), per docs/install.md. */
class WebhookConfigurationTest {
    record Hook(String install, String configuration, boolean mutating, JsonNode webhook) {
        String name() {
            return webhook.path("name").asText();
        }

        @Override
        public String toString() {
            return name() + " in " + install;
        }
    }

    static List<Hook> hooks(Install install) {
        List<Hook> out = new ArrayList<>();
        for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
            for (JsonNode c : install.ofKind(kind)) {
                for (JsonNode w : c.path("webhooks")) {
                    out.add(new Hook(install.name(), c.path("metadata").path("name").asText(), kind.startsWith("Mutating"), w));
                }
            }
        }
        return out;
    }

    static Stream<Hook> allHooks() {
        return Install.both().stream().flatMap(i -> hooks(i).stream());
    }

    @Test
    void everyServedEndpointHasExactlyOneWebhookAndNothingElseIsCalled() {
        for (Install install : Install.both()) {
            List<Hook> hooks = hooks(install);
            assertThat(hooks.stream().map(Hook::name).toList())
                    .as("webhook names in %s", install)
                    .containsExactlyInAnyOrderElementsOf(AdmissionEngine.ENDPOINTS.stream().map(Endpoint::webhookName).toList());
            for (Endpoint e : AdmissionEngine.ENDPOINTS) {
                Hook h = hooks.stream().filter(x -> x.name().equals(e.webhookName())).findFirst().orElseThrow();
                assertThat(h.mutating()).as("%s mutating", h).isEqualTo(e.mutating());
                assertThat(h.configuration()).isEqualTo(e.mutating() ? JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION
                        : JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION);
                JsonNode service = h.webhook().path("clientConfig").path("service");
                assertThat(service.path("path").asText()).as("%s path", h).isEqualTo(e.path());
                assertThat(service.path("name").asText()).isEqualTo(JuneauConstants.WEBHOOK_SERVICE_NAME);
                assertThat(service.path("namespace").asText()).isEqualTo(JuneauConstants.SYSTEM_NAMESPACE);
                JsonNode svc = install.get("Service", JuneauConstants.WEBHOOK_SERVICE_NAME);
                assertThat(service.path("port").asInt(443)).isEqualTo(svc.path("spec").path("ports").get(0).path("port").asInt());
                assertThat(h.webhook().path("clientConfig").has("url")).isFalse();
                assertThat(h.webhook().path("rules").size()).as("%s rules", h).isEqualTo(1);
                JsonNode rule = h.webhook().path("rules").get(0);
                assertThat(KustomizeRenderTest.texts(rule.path("resources"))).as("%s resources", h)
                        .containsExactlyInAnyOrderElementsOf(e.resources());
                assertThat(KustomizeRenderTest.texts(rule.path("apiGroups"))).as("%s apiGroups", h).containsExactly(e.group());
                assertThat(KustomizeRenderTest.texts(rule.path("apiVersions"))).as("%s apiVersions", h).containsExactly(e.version());
                assertThat(KustomizeRenderTest.texts(rule.path("operations"))).as("%s operations", h)
                        .containsExactlyInAnyOrderElementsOf(e.operations());
                assertThat(rule.path("scope").asText()).as("%s scope", h).isEqualTo(e.scope());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("allHooks")
    void failClosedWithoutSideEffectsWithinFiveSecondsOnV1(Hook h) {
        JsonNode w = h.webhook();
        assertThat(w.path("failurePolicy").asText()).isEqualTo("Fail");
        assertThat(w.path("sideEffects").asText()).isEqualTo("None");
        assertThat(w.path("timeoutSeconds").asInt()).isEqualTo(5);
        assertThat(KustomizeRenderTest.texts(w.path("admissionReviewVersions"))).containsExactly("v1");
    }

    @ParameterizedTest
    @MethodSource("allHooks")
    void rulesMatchTheCrdsAndTheOperationsEachKindIsCheckedOn(Hook h) {
        Map<String, JsonNode> crds = new HashMap<>();
        for (var f : Install.yamlFiles(Crds.COMMITTED)) {
            for (JsonNode crd : Install.documents(f)) {
                if ("CustomResourceDefinition".equals(crd.path("kind").asText())) {
                    crds.put(crd.path("spec").path("names").path("plural").asText(), crd);
                }
            }
        }
        assertThat(h.webhook().path("rules").size()).isEqualTo(1);
        JsonNode rule = h.webhook().path("rules").get(0);
        List<String> resources = KustomizeRenderTest.texts(rule.path("resources"));
        String resource = resources.get(0);
        List<String> operations = KustomizeRenderTest.texts(rule.path("operations"));
        if (resource.equals("services")) {
            assertThat(KustomizeRenderTest.texts(rule.path("apiGroups"))).containsExactly("");
            assertThat(KustomizeRenderTest.texts(rule.path("apiVersions"))).containsExactly("v1");
            assertThat(rule.path("scope").asText()).isEqualTo("Namespaced");
            assertThat(operations).containsExactlyInAnyOrder("CREATE", "UPDATE");
            assertThat(resources).containsExactly("services");
            return;
        }
        JsonNode crd = crds.get(resource);
        assertThat(crd).as("a CRD for %s", resource).isNotNull();
        assertThat(KustomizeRenderTest.texts(rule.path("apiGroups"))).containsExactly(crd.path("spec").path("group").asText());
        assertThat(KustomizeRenderTest.texts(rule.path("apiVersions")))
                .containsExactly(crd.path("spec").path("versions").get(0).path("name").asText());
        assertThat(rule.path("scope").asText()).isEqualTo(crd.path("spec").path("scope").asText());
        // DELETE too: pools, networks, peers and BFD profiles in use cannot be deleted, and only the controller deletes
        // SLBs/ARPAdvertisements, only the agents (and the controller) BGPSessions, only its node's agent a NodeNetwork
        assertThat(operations).containsExactlyInAnyOrder("CREATE", "UPDATE", "DELETE");
        if (resource.equals(JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS) || resource.equals(JuneauConstants.PLURAL_ARP_ADVERTISEMENTS)
                || resource.equals(JuneauConstants.PLURAL_BGP_SESSIONS)
                || resource.equals(JuneauConstants.PLURAL_NODE_NETWORKS)) {
            assertThat(resources).containsExactlyInAnyOrder(resource, resource + "/status");
        } else {
            assertThat(resources).containsExactly(resource);
        }
    }

    /** Services that differ in exactly what the matchConditions look at. */
    static List<Map<String, Object>> sampleServices() {
        String cls = JuneauConstants.LOAD_BALANCER_CLASS;
        Map<String, String> ours = Map.of(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "public");
        Map<String, String> others = Map.of("example.com/" + JuneauConstants.GROUP, "x", "team", "blue");
        List<Map<String, Object>> samples = new ArrayList<>();
        for (String type : java.util.Arrays.asList("LoadBalancer", "ClusterIP", "NodePort", null)) {
            for (String c : java.util.Arrays.asList(cls, "example.com/other", cls + "x", null)) {
                for (Map<String, String> a : java.util.Arrays.asList(ours, others, Map.<String, String>of(), null)) {
                    samples.add(MatchConditions.service(type, c, a));
                }
            }
        }
        return samples;
    }

    /**
     * The matchConditions let through exactly what the routing table says (Endpoint.Reach, the Java the local API
     * server's gate uses), checked with a real CEL engine over Services that differ in type, class and annotations.
     */
    @ParameterizedTest
    @MethodSource("allHooks")
    void matchConditionsLetThroughWhatTheRoutingTableSays(Hook h) {
        Endpoint e = AdmissionRoutes.ALL.stream().filter(x -> x.webhookName().equals(h.name())).findFirst().orElseThrow();
        JsonNode conditions = h.webhook().path("matchConditions");
        if (e.reach() == Endpoint.Reach.EVERY_OBJECT) {
            assertThat(h.webhook().has("matchConditions")).as("%s reviews every object of its kind", h).isFalse();
            return;
        }
        assertThat(conditions.size()).as("%s matchConditions", h).isEqualTo(1);
        String cel = conditions.get(0).path("expression").asText();
        if (e.reach() == Endpoint.Reach.NOT_BY_THE_CONTROLLER) {
            Map<String, Object> slb = Map.of("apiVersion", JuneauConstants.API_VERSION, "kind", e.kind(),
                    "metadata", Map.of("name", "web", "namespace", "default"));
            for (String user : List.of(JuneauConstants.DEFAULT_CONTROLLER_USERNAME, "kubernetes-admin",
                    JuneauConstants.DEFAULT_AGENT_USERNAME, JuneauConstants.GARBAGE_COLLECTOR_USERNAME,
                    JuneauConstants.DEFAULT_CONTROLLER_USERNAME + "x")) {
                for (String operation : List.of("CREATE", "UPDATE", "DELETE")) {
                    Map<String, Object> object = operation.equals("DELETE") ? null : slb;
                    assertThat(MatchConditions.evaluate(cel, object, operation, user))
                            .as("%s on %s by %s", h, operation, user)
                            .isEqualTo(e.reach().test(object == null ? null : MAPPER.valueToTree(object), user))
                            .isEqualTo(!user.equals(JuneauConstants.DEFAULT_CONTROLLER_USERNAME));
                }
            }
            return;
        }
        // object is null on DELETE: never dereference it there; optional fields are tested with has() first
        assertThat(cel).startsWith("request.operation != 'DELETE' && object != null &&");
        assertThat(cel.indexOf("has(object.spec.loadBalancerClass)")).isLessThan(cel.indexOf("object.spec.loadBalancerClass =="));
        assertThat(cel.indexOf("has(object.spec.type)")).isLessThan(cel.indexOf("object.spec.type =="));
        int reached = 0;
        for (Map<String, Object> svc : sampleServices()) {
            for (String operation : List.of("CREATE", "UPDATE")) {
                boolean expected = e.reach().test(MAPPER.valueToTree(svc));
                assertThat(MatchConditions.evaluate(cel, svc, operation)).as("%s on %s %s", h, operation, svc).isEqualTo(expected);
                reached += expected ? 1 : 0;
            }
        }
        assertThat(reached).as("some samples reach %s", h).isPositive();
        assertThat(MatchConditions.evaluate(cel, null, "DELETE")).isFalse();
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    @Test
    void theValidatingServiceWebhookSeesUnmanagedServicesWithJuneauAnnotationsAndTheMutatingOneDoesNot() {
        Map<String, Object> noClass = MatchConditions.service("LoadBalancer", null,
                Map.of(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "public"));
        for (Install install : Install.both()) {
            for (Hook h : hooks(install)) {
                if (!h.name().startsWith("services.")) {
                    continue;
                }
                String cel = h.webhook().path("matchConditions").get(0).path("expression").asText();
                assertThat(MatchConditions.evaluate(cel, noClass, "CREATE")).as("%s", h).isEqualTo(!h.mutating());
                assertThat(MatchConditions.evaluate(cel, MatchConditions.service("LoadBalancer", JuneauConstants.LOAD_BALANCER_CLASS), "CREATE")).isTrue();
                assertThat(MatchConditions.evaluate(cel, MatchConditions.service("LoadBalancer", "example.com/other"), "UPDATE")).isFalse();
            }
        }
    }
}
