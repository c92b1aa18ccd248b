package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which requests the gate sends to which webhook path: the routing table and the matchConditions, as kube-apiserver
 * applies them (a recording webhook that allows everything stands in for the real one).
 */
class AdmissionGateTest {
    private static final ResourceType SLBS = new ResourceType("juneau.loutres.me", "v1alpha1", "serviceloadbalancers",
            "serviceloadbalancer", "ServiceLoadBalancer", true, true, List.of("slb"), ResourceType.ALL_VERBS, true, null,
            List.of());
    private static final ResourceType ARPS = new ResourceType("juneau.loutres.me", "v1alpha1", "arpadvertisements",
            "arpadvertisement", "ARPAdvertisement", false, true, List.of(), ResourceType.ALL_VERBS, true, null,
            List.of());

    private final List<String> called = new ArrayList<>();
    private final AdmissionGate gate = new AdmissionGate(new WebhookCaller() {
        @Override
        public io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview call(String path,
                io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview review) {
            throw new AssertionError("the gate speaks JSON");
        }

        @Override
        public JsonNode callJson(String path, ObjectNode review) {
            called.add(path + " by " + review.path("request").path("userInfo").path("username").asText());
            ObjectNode answer = Json.MAPPER.createObjectNode();
            answer.putObject("response").put("uid", review.path("request").path("uid").asText()).put("allowed", true);
            return answer;
        }
    });

    /** The caller behind {@code juneau-local-<admin|controller|agent>} (node-a's agent). */
    private static Caller as(String who) {
        String bearer = switch (who) {
            case "juneau-local-admin" -> Identities.ADMIN_TOKEN;
            case "juneau-local-controller" -> Identities.CONTROLLER_TOKEN;
            default -> Identities.agentToken("node-a");
        };
        return new Caller(Identities.authenticate("Bearer " + bearer).orElseThrow(), false, null, false, null,
                new ArrayList<>());
    }

    private static ObjectNode object(String kind) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("apiVersion", "juneau.loutres.me/v1alpha1").put("kind", kind);
        o.putObject("metadata").put("name", "web").put("namespace", "default");
        return o;
    }

    @ParameterizedTest(name = "{0} {1} of a ServiceLoadBalancer by {2}")
    @CsvSource({
            "CREATE, '',     juneau-local-controller, 0",
            "UPDATE, status, juneau-local-controller, 0",
            "DELETE, '',     juneau-local-controller, 0",
            "CREATE, '',     juneau-local-admin,      1",
            "UPDATE, status, juneau-local-admin,      1",
            "DELETE, '',     juneau-local-admin,      1",
            "UPDATE, '',     juneau-local-agent,      1",
    })
    void onlyTheControllersOwnServiceLoadBalancerWritesSkipTheWebhook(String operation, String sub, String token,
            int reviews) throws Exception {
        ObjectNode slb = object("ServiceLoadBalancer");
        gate.admit(operation, SLBS, sub.isEmpty() ? null : sub, "default", "web",
                operation.equals("DELETE") ? null : slb, operation.equals("CREATE") ? null : slb, as(token));
        assertThat(called).hasSize(reviews);
        called.forEach(c -> assertThat(c).startsWith("/validate/serviceloadbalancers by "));
    }

    @ParameterizedTest(name = "{0} of an ARPAdvertisement by {1}")
    @CsvSource({"CREATE, juneau-local-controller", "UPDATE, juneau-local-controller", "CREATE, juneau-local-admin"})
    void everyAdvertisementWriteIsReviewedTheControllersToo(String operation, String token) throws Exception {
        ObjectNode arp = object("ARPAdvertisement");
        gate.admit(operation, ARPS, null, null, "web", arp, operation.equals("CREATE") ? null : arp, as(token));
        assertThat(called).singleElement().asString().startsWith("/validate/arpadvertisements by ");
    }

    @ParameterizedTest(name = "{0} {1} of {2} goes to {3}")
    @CsvSource({
            "CREATE, '',     bgpsessions, /validate/bgpsessions",
            "UPDATE, status, bgpsessions, /validate/bgpsessions",
            "DELETE, '',     bgpsessions, /validate/bgpsessions",
            "CREATE, '',     bgppeers,    /validate/bgppeers",
            "DELETE, '',     bgppeers,    /validate/bgppeers",
            "UPDATE, '',     bfdprofiles, /validate/bfdprofiles",
            "DELETE, '',     bfdprofiles, /validate/bfdprofiles",
    })
    void theBgpKindsAreReviewedOnTheirOwnPaths(String operation, String sub, String plural, String path)
            throws Exception {
        String kind = switch (plural) {
            case "bgpsessions" -> "BGPSession";
            case "bgppeers" -> "BGPPeer";
            default -> "BFDProfile";
        };
        ResourceType type = new ResourceType("juneau.loutres.me", "v1alpha1", plural, plural.substring(0,
                plural.length() - 1), kind, false, plural.equals("bgpsessions"), List.of(), ResourceType.ALL_VERBS,
                true, null, List.of());
        ObjectNode o = object(kind);
        gate.admit(operation, type, sub.isEmpty() ? null : sub, null, "x", operation.equals("DELETE") ? null : o,
                operation.equals("CREATE") ? null : o, as("juneau-local-admin"));
        assertThat(called).singleElement().asString().startsWith(path + " by ");
    }
}
