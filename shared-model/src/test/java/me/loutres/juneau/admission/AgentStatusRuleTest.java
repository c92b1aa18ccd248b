package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** docs/admission.md, the node agent: it may UPDATE only ARPAdvertisement status, and only for spec.nodeName's node. */
class AgentStatusRuleTest {
    static final String ARPS = "/validate/arpadvertisements";
    static final String SLBS = "/validate/serviceloadbalancers";
    static final String AGENT = JuneauConstants.DEFAULT_AGENT_USERNAME;
    static final String OTHER_AGENT = "system:serviceaccount:edge:edge-agent";
    static final String NAME = "ARPAdvertisement slb-default-l2web";
    static final String BY_AGENT = " (request by \"" + AGENT + "\")";

    static final String OWNED = Manifests.arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", "");

    static String withStatus(String yaml, String node) {
        return yaml + "status:\n" + (node == null ? "" : "  node: " + node + "\n")
                + "  interface: eth0\n  macAddress: \"02:00:00:00:00:0a\"\n  announcedAt: \"2026-12-01T12:00:00Z\"\n"
                + "  conditions:\n  - {type: Announced, status: \"True\", reason: Announced, message: ok,"
                + " lastTransitionTime: \"2026-12-01T12:00:00Z\"}\n";
    }

    record Case(String rule, String path, Supplier<Requests> request, boolean allowed, String message) {
        @Override
        public String toString() {
            return rule;
        }
    }

    static Stream<Case> cases() {
        String denied = NAME + " is managed by Juneau; edit Service default/l2web instead (request by \"alice\")";
        return Stream.of(
                new Case("agent writes the status of its own node's advertisement", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")).user(AGENT), true, null),
                new Case("agent claims another node in status", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-b")).user(AGENT), false,
                        NAME + ": status.node \"node-b\" is not spec.nodeName \"node-a\"; a node agent reports only"
                                + " the advertisements its node owns" + BY_AGENT),
                new Case("agent with a bound token writes its own node's advertisement", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")).user(AGENT).nodeNameExtra("node-a"), true, null),
                new Case("agent with a bound token of another node speaks for node-a", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")).user(AGENT).nodeNameExtra("node-b"), false,
                        NAME + ": spec.nodeName \"node-a\" is not the requesting agent's node \"node-b\""
                                + " (userInfo.extra[\"authentication.kubernetes.io/node-name\"]); accepted: only"
                                + " advertisements of node node-b" + BY_AGENT),
                new Case("agent leaves status.node out", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, null)).user(AGENT), false,
                        NAME + ": status.node is missing; the node agent must name its node, which must be"
                                + " spec.nodeName \"node-a\"" + BY_AGENT),
                new Case("agent slips a spec change into a status write", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED.replace("nodeName: node-a", "nodeName: node-b"), "node-b"))
                                .user(AGENT), false,
                        NAME + ": the node agent may not change spec; only the controller moves a VIP" + BY_AGENT),
                new Case("agent updates the main resource (moves the VIP)", ARPS,
                        () -> Requests.arp("UPDATE").oldObject(OWNED)
                                .object(OWNED.replace("nodeName: node-a", "nodeName: node-b")).user(AGENT), false,
                        NAME + ": the node agent may only update the status subresource, not UPDATE" + BY_AGENT),
                new Case("a token with two node names speaks for neither (not for the first)", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")).user(AGENT).nodeNameExtra("node-a", "node-b"),
                        false, "userInfo.extra[\"authentication.kubernetes.io/node-name\"]: 2 values [\"node-a\","
                                + " \"node-b\"]; accepted: exactly one node name (a bound service-account token carries"
                                + " the node it was issued on)"),
                new Case("agent creates an advertisement", ARPS,
                        () -> Requests.arp("CREATE").object(OWNED).user(AGENT), false,
                        NAME + ": the node agent may only update the status subresource, not CREATE" + BY_AGENT),
                new Case("agent deletes an advertisement", ARPS,
                        () -> Requests.arp("DELETE").oldObject(OWNED).user(AGENT), false,
                        NAME + ": the node agent may only update the status subresource, not DELETE" + BY_AGENT),
                new Case("a user may not write status either", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")), false, denied),
                new Case("the agent identity has no say over ServiceLoadBalancers", SLBS,
                        () -> Requests.slb("UPDATE").subResource("status")
                                .oldObject(Manifests.slb("default", "web", "public", "192.0.2.1", ""))
                                .object(Manifests.slb("default", "web", "public", "192.0.2.2", "")).user(AGENT), false,
                        "ServiceLoadBalancer default/web is managed by Juneau; edit Service default/web instead"
                                + BY_AGENT),
                new Case("the controller still writes status", ARPS,
                        () -> Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                                .object(withStatus(OWNED, "node-a")).user(Requests.CONTROLLER), true, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        AdmissionRequest request = c.request().get().build();
        AdmissionResponse response = new AdmissionEngine(AdmissionSettings.defaults())
                .review(c.path(), request, Fixtures.cluster());

        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        if (c.allowed()) {
            assertThat(response.getStatus()).isNull();
        } else {
            assertThat(response.getStatus().getCode()).isEqualTo(403);
            assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
        }
    }

    @Test
    void theAgentIdentityIsConfigurableAndTheDefaultThenHasNoRights() {
        AdmissionEngine engine = new AdmissionEngine(new AdmissionSettings(null, List.of(), Set.of(OTHER_AGENT)));
        AdmissionRequest byConfigured = Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                .object(withStatus(OWNED, "node-a")).user(OTHER_AGENT).build();
        AdmissionRequest byDefault = Requests.arp("UPDATE").subResource("status").oldObject(OWNED)
                .object(withStatus(OWNED, "node-a")).user(AGENT).build();

        assertThat(engine.review(ARPS, byConfigured, Fixtures.cluster()).getAllowed()).isTrue();
        assertThat(engine.review(ARPS, byDefault, Fixtures.cluster()).getAllowed()).isFalse();
        assertThat(AdmissionSettings.defaults().agentUsernames()).containsExactly(AGENT);
    }
}
