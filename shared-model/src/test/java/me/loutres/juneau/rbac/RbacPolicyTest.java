package me.loutres.juneau.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.view.YamlDocuments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RBAC's decisions over the manifests' roles and bindings, and over the corners of its matching. */
class RbacPolicyTest {
    private static final RbacUser AGENT = serviceAccount("juneau-agent");
    private static final RbacUser CONTROLLER = serviceAccount("juneau-controller");
    private static final RbacUser WEBHOOK = serviceAccount("juneau-webhook");

    private static RbacUser serviceAccount(String name) {
        return new RbacUser("system:serviceaccount:juneau-system:" + name, List.of("system:serviceaccounts",
                "system:serviceaccounts:juneau-system", "system:authenticated"));
    }

    private static RbacPolicy manifests() throws Exception {
        List<JsonNode> objects = new ArrayList<>();
        for (String part : List.of("agent", "controller", "webhook")) {
            YamlDocuments.read(Path.of("..", "manifests", "base", part, "rbac.yaml"))
                    .forEach(d -> objects.add(d.content()));
        }
        return RbacPolicy.of(objects);
    }

    private static RbacPolicy of(String yaml) throws Exception {
        List<JsonNode> objects = new ArrayList<>();
        new YAMLMapper().readerFor(JsonNode.class).readValues(yaml).forEachRemaining(o -> objects.add((JsonNode) o));
        return RbacPolicy.of(objects);
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            "agent      | PUT    | /apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-a/status | true",
            "agent      | PATCH  | /apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.node-a/status | false",
            "agent      | PATCH  | /apis/juneau.loutres.me/v1alpha1/bgppeers/tor                  | false",
            "agent      | GET    | /apis/juneau.loutres.me/v1alpha1/bgppeers?watch=true           | true",
            "agent      | GET    | /api/v1/namespaces/juneau-system/secrets/tor-md5               | true",
            "agent      | GET    | /api/v1/namespaces/default/secrets/tor-md5                     | false",
            "agent      | GET    | /api/v1/namespaces/juneau-system/secrets                       | false",
            "agent      | PUT    | /apis/coordination.k8s.io/v1/namespaces/juneau-system/leases/juneau-agent-node-a | true",
            "agent      | PUT    | /apis/coordination.k8s.io/v1/namespaces/default/leases/juneau-agent-node-a | false",
            "controller | PUT    | /api/v1/namespaces/web/services/shop/status                    | true",
            "controller | PUT    | /api/v1/namespaces/web/services/shop                           | false",
            "controller | DELETE | /apis/juneau.loutres.me/v1alpha1/namespaces/web/serviceloadbalancers/shop | true",
            "controller | DELETE | /apis/juneau.loutres.me/v1alpha1/namespaces/web/serviceloadbalancers | false",
            "controller | GET    | /api/v1/namespaces/juneau-system/secrets/tor-md5               | false",
            "webhook    | GET    | /api/v1/namespaces/juneau-system/secrets?watch=true            | true",
            "webhook    | POST   | /apis/juneau.loutres.me/v1alpha1/addresspools                  | false",
            "webhook    | GET    | /version                                                       | false",
    })
    void theManifestsGrantEachPartWhatItsRulesSay(String part, String method, String pathAndQuery, boolean allowed)
            throws Exception {
        RbacUser user = switch (part) {
            case "agent" -> AGENT;
            case "controller" -> CONTROLLER;
            default -> WEBHOOK;
        };
        String[] pq = pathAndQuery.split("\\?");
        Map<String, String> query = pq.length > 1 ? Map.of(pq[1].split("=")[0], pq[1].split("=")[1]) : Map.of();
        RbacPolicy.Decision d = manifests().decide(user, RequestAttributes.of(method, pq[0], query));
        assertThat(d.allowed()).isEqualTo(allowed);
        if (allowed) {
            assertThat(d.reason()).startsWith("RBAC: allowed by ").contains("to ServiceAccount \"juneau-"
                    + part + "/juneau-system\"");
        }
    }

    @Test
    void subjectsAreUsersGroupsAndServiceAccountsAndRoleBindingsStayInTheirNamespace() throws Exception {
        RbacPolicy p = of("""
                kind: ClusterRole
                metadata: {name: reader}
                rules:
                  - {apiGroups: [""], resources: [configmaps], verbs: [get]}
                  - {nonResourceURLs: ["/metrics", "/debug/*"], verbs: [get]}
                ---
                kind: RoleBinding
                metadata: {name: reader, namespace: team}
                roleRef: {kind: ClusterRole, name: reader}
                subjects: [{kind: ServiceAccount, name: bot}, {kind: User, name: alice}]
                ---
                kind: ClusterRoleBinding
                metadata: {name: ops}
                roleRef: {kind: ClusterRole, name: reader}
                subjects: [{kind: Group, name: ops}]
                ---
                kind: ClusterRoleBinding
                metadata: {name: dangling}
                roleRef: {kind: ClusterRole, name: does-not-exist}
                subjects: [{kind: Group, name: system:authenticated}]
                """);
        RequestAttributes inTeam = RequestAttributes.of("GET", "/api/v1/namespaces/team/configmaps/c", Map.of());
        RequestAttributes elsewhere = RequestAttributes.of("GET", "/api/v1/namespaces/prod/configmaps/c", Map.of());
        RbacUser bot = new RbacUser("system:serviceaccount:team:bot", List.of("system:authenticated"));
        RbacUser alice = new RbacUser("alice", List.of("system:authenticated"));
        RbacUser ops = new RbacUser("bob", List.of("ops", "system:authenticated"));
        RbacUser nobody = new RbacUser("eve", List.of("system:authenticated"));
        assertThat(p.decide(bot, inTeam).allowed()).as("a RoleBinding's service account defaults to its namespace")
                .isTrue();
        assertThat(p.decide(alice, inTeam).reason())
                .isEqualTo("RBAC: allowed by RoleBinding \"reader/team\" of ClusterRole \"reader\" to User \"alice\"");
        assertThat(p.decide(alice, elsewhere).allowed()).isFalse();
        assertThat(p.decide(ops, elsewhere).allowed()).isTrue();
        assertThat(p.decide(nobody, inTeam).allowed()).as("a binding of a missing role grants nothing").isFalse();
        // non-resource URLs come only through ClusterRoleBindings
        assertThat(p.decide(alice, RequestAttributes.nonResource("get", "/metrics")).allowed()).isFalse();
        assertThat(p.decide(ops, RequestAttributes.nonResource("get", "/metrics")).allowed()).isTrue();
        assertThat(p.decide(ops, RequestAttributes.nonResource("get", "/debug/pprof")).allowed()).isTrue();
        assertThat(p.decide(ops, RequestAttributes.nonResource("get", "/metricsx")).allowed()).isFalse();
        assertThat(p.rulesFor(alice, "team")).singleElement().extracting(PolicyRule::resources)
                .isEqualTo(List.of("configmaps"));
        assertThat(p.rulesFor(alice, "prod")).isEmpty();
    }

    @ParameterizedTest(name = "{0} allows {1} {2}/{3} name={4}: {5}")
    @CsvSource(delimiter = '|', value = {
            "{verbs: ['*'], apiGroups: ['*'], resources: ['*']}                  | delete | services | ''     | web | true",
            "{verbs: [update], apiGroups: [''], resources: ['*/status']}          | update | services | status | web | true",
            "{verbs: [update], apiGroups: [''], resources: ['*/status']}          | update | services | ''     | web | false",
            "{verbs: [update], apiGroups: [''], resources: ['services/*']}        | update | services | status | web | true",
            "{verbs: [update], apiGroups: [''], resources: [services]}            | update | services | status | web | false",
            "{verbs: [get], apiGroups: [''], resources: [services], resourceNames: [web]} | get | services | '' | web | true",
            "{verbs: [get], apiGroups: [''], resources: [services], resourceNames: [web]} | get | services | '' | api | false",
            "{verbs: [list], apiGroups: [''], resources: [services], resourceNames: [web]} | list | services | '' | '' | false",
            "{verbs: [get], apiGroups: [apps], resources: [services]}             | get    | services | ''     | web | false",
    })
    void rulesMatchAsKubeMatchesThem(String rule, String verb, String resource, String sub, String name,
            boolean allowed) throws Exception {
        PolicyRule r = PolicyRule.of(new YAMLMapper().readTree(rule));
        assertThat(r.matches(RequestAttributes.resource(verb, "", resource, sub, "default", name))).isEqualTo(allowed);
    }
}
