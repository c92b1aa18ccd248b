package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.controller.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.controller.JuneauController;
import me.loutres.juneau.controller.testing.MockCluster;
import me.loutres.juneau.controller.testing.Scrape;
import me.loutres.juneau.controller.testing.TestDispatcher;
import org.junit.jupiter.api.Test;

/**
 * Least privilege, checked both ways: every API call the controller makes while it goes through every path of
 * SPEC §3 (recorded by the mock API server) is granted by {@code manifests/base/controller/rbac.yaml}, and the
 * file grants nothing those calls do not use.
 */
class RbacMockTest {
    static final Path RBAC = Path.of("..", "manifests", "base", "controller", "rbac.yaml");

    /** One permission: API group, resource[/subresource], verb, and the namespace for a Role (null: cluster). */
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
        try (MockCluster c = new MockCluster()) {
            exerciseEveryPath(c);
            for (TestDispatcher.Request r : c.dispatcher().requests()) {
                if (MockCluster.CONTROLLER_AGENT.equals(r.userAgent())) {
                    used.add(toPermission(r));
                }
            }
            List<Permission> granted = granted(c);
            List<Permission> ungranted = used.stream()
                    .filter(p -> granted.stream().noneMatch(g -> covers(g, p))).toList();
            List<Permission> unused = granted.stream()
                    .filter(g -> used.stream().noneMatch(p -> covers(g, p))).toList();
            assertThat(ungranted).as("calls rbac.yaml does not grant (all calls: %s)", used).isEmpty();
            assertThat(unused).as("grants of rbac.yaml the controller never uses (all calls: %s)", used).isEmpty();
        }
    }

    /** Every kind of write and read: create/update/move/delete, finalizer, statuses, events (also repeated), Lease. */
    private static void exerciseEveryPath(MockCluster c) {
        c.node("node-a", "192.168.10.1");
        // both Nodes exist before any slice names them: a Node whose add event reached the controller after the
        // slice naming it made one extra move (node -> <none> -> node), so the third move repeated no event
        c.node("node-b", "192.168.10.2");
        c.pool("rbac-arp", "arp", "10.90.0.1-10.90.0.1");
        c.network("rbac-arp-net", "arp", "rbac-arp");
        c.pool("rbac-bgp", "bgp", "10.91.0.0/30");
        c.network("rbac-bgp-net", "bgp", "rbac-bgp");
        JuneauController ctl = c.startController("rbac-first");

        c.service("r", "web", "rbac-arp-net");
        c.endpoints("r", "web", "node-a");
        eventually(() -> assertThat(c.arp("r", "web")).isNotNull());
        // moves back and forth: the third move repeats the first event (an update of the existing event)
        for (String node : List.of("node-b", "node-a", "node-b")) {
            c.endpoints("r", "web", node);
            eventually(() -> assertThat(c.arp("r", "web").getSpec().getNodeName()).isEqualTo(node));
        }
        c.slice("r", "web", List.of(MockCluster.endpoint("10.244.0.1", "node-b", false)));
        eventually(() -> assertThat(c.arp("r", "web")).isNull());

        // the spec of a ServiceLoadBalancer follows its Service's annotations
        c.serviceRequesting("r", "wants", "rbac-arp-net", "10.90.0.1");
        eventually(() -> assertThat(c.slb("r", "wants")).isNotNull());
        c.client().services().inNamespace("r").withName("wants").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"" + JuneauConstants.ANNOTATION_REQUESTED_IP + "\":null}}}");
        eventually(() -> assertThat(c.slb("r", "wants").getSpec().getRequestedIP()).isNull());

        // a bgp Service, then deletion through the finalizer
        c.service("r", "bgp", "rbac-bgp-net");
        eventually(() -> assertThat(c.slb("r", "bgp").getStatus().getVip()).isNotNull());
        c.client().services().inNamespace("r").withName("bgp").delete();
        eventually(() -> assertThat(c.slb("r", "bgp")).isNull());

        // a restart: the Lease is released by the first and taken by the second, which restores by listing
        ctl.close();
        JuneauController second = c.startController("rbac-second");
        eventually(() -> assertThat(Scrape.allocated(second, "rbac-arp")).isEqualTo(1.0));
        second.close();
    }

    private List<Permission> granted(MockCluster c) throws Exception {
        assertThat(RBAC).as("the controller's RBAC manifest").exists();
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
    static Permission toPermission(TestDispatcher.Request r) {
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
