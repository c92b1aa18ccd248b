package me.loutres.juneau.agent.scenario;

import static me.loutres.juneau.agent.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.agent.AgentOptions;
import me.loutres.juneau.agent.NodeAgent;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.testing.AgentCluster;
import me.loutres.juneau.agent.testing.FakeWire;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, both ways: every API call the agent makes on all its paths (recorded by the mock API server) is
 * granted by {@code manifests/base/agent/rbac.yaml}, and the file grants nothing those calls do not use.
 */
class RbacMockTest {
    static final Path RBAC = Path.of("..", "manifests", "base", "agent", "rbac.yaml");

    record Permission(String group, String resource, String verb, String namespace) implements Comparable<Permission> {
        @Override
        public int compareTo(Permission o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb
                    + (namespace == null ? "" : " in " + namespace);
        }
    }

    @Test
    void everyCallIsGrantedAndEveryGrantIsUsed() throws Exception {
        Set<Permission> used = new TreeSet<>();
        try (AgentCluster c = new AgentCluster()) {
            exerciseEveryPath(c);
            c.agentRequests().forEach(r -> used.add(toPermission(r)));
            List<Permission> granted = granted(c);
            List<Permission> ungranted = used.stream().filter(p -> granted.stream().noneMatch(g -> covers(g, p))).toList();
            List<Permission> unused = granted.stream().filter(g -> used.stream().noneMatch(p -> covers(g, p))).toList();
            assertThat(ungranted).as("calls rbac.yaml does not grant (all calls: %s)", used).isEmpty();
            assertThat(unused).as("grants of rbac.yaml the agent never uses (all calls: %s)", used).isEmpty();
        }
    }

    /** Gain (status, Event, Lease create and renew), a conflict, a move away, a pause and its fresh list, release. */
    private static void exerciseEveryPath(AgentCluster c) throws Exception {
        MacAddress mac = MacAddress.parse("02:00:00:00:00:0a");
        InterfaceInfo eth0 = new InterfaceInfo("eth0", 2, mac,
                List.of(new InterfaceInfo.Prefix(Ipv4.parse("198.18.0.11"), 24)), true, false);
        FakeWire wire = new FakeWire();
        // a Lease shorter than the renew interval makes the keeper see a "pause" and take the fresh-list path
        AgentOptions options = AgentOptions.defaults("node-a").withMetrics("127.0.0.1", -1)
                .withLease(new LeaseKeeper.Timing(Duration.ofMillis(1200), Duration.ofSeconds(1),
                        Duration.ofMillis(1200), Duration.ofSeconds(1)));
        c.advertise("web", "198.18.0.100", "node-a");
        NodeAgent agent = NodeAgent.start(c.newAgentClient(), options, wire, () -> List.of(eth0));
        try {
            eventually(() -> assertThat(c.get("web").getStatus()).isNotNull());
            wire.inject("eth0", ArpFrame.gratuitousRequest(MacAddress.parse("02:00:00:00:00:0b"),
                    Ipv4.parse("198.18.0.100")));
            eventually(() -> assertThat(agent.metrics().conflictCount()).isEqualTo(1.0));
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("PUT")
                    && r.path().contains("/leases/")));
            eventually(() -> assertThat(c.agentRequests()).anyMatch(r -> r.method().equals("GET")
                    && r.path().contains("arpadvertisements?") && !r.path().contains("watch=true")
                    && c.agentRequests().indexOf(r) > 2));
            c.move("web", "node-b");
            eventually(() -> assertThat(agent.answering()).isEmpty());
        } finally {
            agent.close();
        }
    }

    private List<Permission> granted(AgentCluster c) throws Exception {
        assertThat(RBAC).as("the agent's RBAC manifest").exists();
        List<Permission> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(RBAC)) {
            for (HasMetadata o : c.client().load(in).items()) {
                List<PolicyRule> rules = o instanceof ClusterRole cr ? cr.getRules()
                        : o instanceof Role r ? r.getRules() : List.of();
                String ns = o instanceof Role ? o.getMetadata().getNamespace() : null;
                for (PolicyRule rule : rules) {
                    assertThat(rule.getResourceNames()).as("resourceNames in %s", rule).isNullOrEmpty();
                    for (String g : rule.getApiGroups()) {
                        for (String res : rule.getResources()) {
                            for (String v : rule.getVerbs()) {
                                out.add(new Permission(g, res, v, ns));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean covers(Permission grant, Permission call) {
        return grant.group().equals(call.group()) && grant.resource().equals(call.resource())
                && grant.verb().equals(call.verb())
                && (grant.namespace() == null || grant.namespace().equals(call.namespace()));
    }

    /** Maps a REST call to what RBAC checks: {@code /apis/<group>/<version>[/namespaces/<ns>]/<res>[/<name>[/<sub>]]}. */
    static Permission toPermission(AgentCluster.Request r) {
        URI uri = URI.create(r.path());
        String[] parts = uri.getPath().replaceFirst("^/", "").split("/");
        int i;
        String group;
        if ("api".equals(parts[0])) {
            group = "";
            i = 2;
        } else {
            group = parts[1];
            i = 3;
        }
        String ns = null;
        if (parts.length > i + 2 && "namespaces".equals(parts[i])) {
            ns = parts[i + 1];
            i += 2;
        }
        String resource = parts[i];
        String name = parts.length > i + 1 ? parts[i + 1] : null;
        String sub = parts.length > i + 2 ? parts[i + 2] : null;
        String query = uri.getQuery() == null ? "" : uri.getQuery();
        String verb = switch (r.method()) {
            case "GET" -> query.contains("watch=true") ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> r.method();
        };
        return new Permission(group, sub == null ? resource : resource + "/" + sub, verb, ns);
    }
}
