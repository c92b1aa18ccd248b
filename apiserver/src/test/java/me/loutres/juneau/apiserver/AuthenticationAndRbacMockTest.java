package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every request is authenticated (a bearer token, anonymous authentication off) and authorized with the RBAC objects
 * the server stores: kube's defaults and the manifests' roles from the start, and what an admin applies later;
 * refusals carry kube-apiserver's Status and words, and an access review answers what the request would get.
 */
class AuthenticationAndRbacMockTest extends ApiServerFixture {
    private static final String AGENT = "system:serviceaccount:juneau-system:juneau-agent";

    @ParameterizedTest(name = "token {0}")
    @CsvSource(nullValues = "-", value = {"-", "not-a-token"})
    void aRequestWithoutAKnownTokenIsUnauthorizedOnEveryPath(String token) {
        for (String path : new String[] {"/api/v1/namespaces/juneau-system/secrets/bgp-auth", "/healthz", "/version",
                "/apis"}) {
            Reply r = callAs(token, "GET", path, null, null, null);
            assertThat(r.code()).as(path).isEqualTo(401);
            assertThat(r.body().path("kind").asText()).isEqualTo("Status");
            assertThat(r.body().path("status").asText()).isEqualTo("Failure");
            assertThat(r.body().path("reason").asText()).isEqualTo("Unauthorized");
            assertThat(r.message()).isEqualTo("Unauthorized");
            assertThat(r.body().path("code").asInt()).isEqualTo(401);
        }
    }

    @Test
    void anAgentMayNotPatchAPeerAndIsToldInKubeApiserversWords() {
        String peer = "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"BGPPeer\",\"metadata\":{\"name\":"
                + "\"tor\"},\"spec\":{\"peerAddress\":\"198.18.0.1\",\"peerASN\":65000,\"myASN\":65001}}";
        assertThat(post("/apis/juneau.loutres.me/v1alpha1/bgppeers", peer).code()).isEqualTo(201);
        Reply r = callAs(Identities.agentToken("node-a"), "PATCH", "/apis/juneau.loutres.me/v1alpha1/bgppeers/tor",
                "application/merge-patch+json", "{\"spec\":{\"peerASN\":65009}}", null);
        assertThat(r.code()).isEqualTo(403);
        assertThat(r.body().path("reason").asText()).isEqualTo("Forbidden");
        assertThat(r.message()).isEqualTo("bgppeers.juneau.loutres.me \"tor\" is forbidden: User \"" + AGENT
                + "\" cannot patch resource \"bgppeers\" in API group \"juneau.loutres.me\" at the cluster scope");
        assertThat(r.body().path("details").path("name").asText()).isEqualTo("tor");
        assertThat(r.body().path("details").path("group").asText()).isEqualTo("juneau.loutres.me");
        assertThat(r.body().path("details").path("kind").asText()).isEqualTo("bgppeers");
        assertThat(get("/apis/juneau.loutres.me/v1alpha1/bgppeers/tor").body().path("spec").path("peerASN").asInt())
                .as("nothing was written").isEqualTo(65000);
        assertThat(review(Identities.agentToken("node-a"), "patch", "juneau.loutres.me", "bgppeers", "", "")
                .path("allowed").asBoolean()).isFalse();
    }

    @Test
    void theManifestsRolesAreStoredAndTheReviewsAnswerWhatTheRequestsGet() {
        assertThat(get("/apis/rbac.authorization.k8s.io/v1/clusterroles/juneau-agent").code()).isEqualTo(200);
        assertThat(get("/apis/rbac.authorization.k8s.io/v1/namespaces/juneau-system/roles/juneau-agent-lease").code())
                .isEqualTo(200);
        assertThat(get("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/cluster-admin").code()).isEqualTo(200);
        String agent = Identities.agentToken("node-a");
        // the Secret the issue found readable by anyone: the agent may get it (its Role), not list Secrets
        post("/api/v1/namespaces/juneau-system/secrets", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
                + "{\"name\":\"bgp-auth\"},\"stringData\":{\"password\":\"s3cret\"}}");
        assertThat(callAs(agent, "GET", "/api/v1/namespaces/juneau-system/secrets/bgp-auth", null, null, null).code())
                .isEqualTo(200);
        Reply list = callAs(agent, "GET", "/api/v1/namespaces/juneau-system/secrets", null, null, null);
        assertThat(list.code()).isEqualTo(403);
        assertThat(list.message()).isEqualTo("secrets is forbidden: User \"" + AGENT + "\" cannot list resource"
                + " \"secrets\" in API group \"\" in the namespace \"juneau-system\"");
        JsonNode getReview = review(agent, "get", "", "secrets", "juneau-system", "bgp-auth");
        assertThat(getReview.path("allowed").asBoolean()).isTrue();
        assertThat(getReview.path("reason").asText()).isEqualTo("RBAC: allowed by RoleBinding"
                + " \"juneau-agent-bgp-passwords/juneau-system\" of Role \"juneau-agent-bgp-passwords\" to"
                + " ServiceAccount \"juneau-agent/juneau-system\"");
        assertThat(review(agent, "list", "", "secrets", "juneau-system", "").path("allowed").asBoolean()).isFalse();
        // every authenticated identity may read discovery and the version (kube's system:discovery)
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", "/apis", null, null, null).code()).isEqualTo(200);
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", "/openapi/v3", null, null, null).code()).isEqualTo(200);
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", "/version", null, null, null).code()).isEqualTo(200);
    }

    @Test
    void aRoleBindingTheAdminAppliesCountsFromTheNextRequestOn() {
        String path = "/api/v1/namespaces/default/configmaps";
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", path, null, null, null).code()).isEqualTo(403);
        assertThat(post("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", "{\"apiVersion\":"
                + "\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{\"name\":\"cm-reader\"},"
                + "\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"list\"]}]}").code())
                .isEqualTo(201);
        assertThat(post("/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", "{\"apiVersion\":"
                + "\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\",\"metadata\":{\"name\":\"cm-reader\"},"
                + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"cm-reader\"},"
                + "\"subjects\":[{\"kind\":\"Group\",\"name\":\"system:serviceaccounts:juneau-system\"}]}").code())
                .isEqualTo(201);
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", path, null, null, null).code()).isEqualTo(200);
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", "/api/v1/namespaces/kube-system/configmaps", null, null,
                null).code()).as("a RoleBinding grants in its namespace only").isEqualTo(403);
        assertThat(delete("/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/cm-reader").code())
                .isEqualTo(200);
        assertThat(callAs(Identities.WEBHOOK_TOKEN, "GET", path, null, null, null).code()).isEqualTo(403);
    }

    @Test
    void onlyWhomRbacLetsImpersonateMayActAsAnother() {
        Reply refused = impersonating(Identities.CONTROLLER_TOKEN, Identities.WEBHOOK_USERNAME);
        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.message()).isEqualTo("serviceaccounts \"juneau-webhook\" is forbidden: User"
                + " \"system:serviceaccount:juneau-system:juneau-controller\" cannot impersonate resource"
                + " \"serviceaccounts\" in API group \"\" in the namespace \"juneau-system\"");
        // the admin may; the impersonated service account then gets its own answer (no Secrets in default)
        Reply asWebhook = impersonating(Identities.ADMIN_TOKEN, Identities.WEBHOOK_USERNAME);
        assertThat(asWebhook.code()).isEqualTo(403);
        assertThat(asWebhook.message()).contains("User \"system:serviceaccount:juneau-system:juneau-webhook\"");
    }

    @Test
    void canIListShowsTheRulesOfTheNamespaceAsked() {
        String agent = Identities.agentToken("node-a");
        JsonNode inSystem = rules(agent, "juneau-system");
        assertThat(inSystem.path("resourceRules").toString()).contains("\"leases\"", "\"secrets\"",
                "\"bgpsessions/status\"", "\"selfsubjectaccessreviews\"");
        assertThat(inSystem.path("nonResourceRules").toString()).contains("\"/apis/*\"", "\"/version\"");
        assertThat(rules(agent, "default").path("resourceRules").toString()).as("its Roles are in juneau-system")
                .doesNotContain("\"secrets\"", "\"leases\"").contains("\"bgpsessions/status\"");
    }

    private JsonNode rules(String token, String namespace) {
        Reply r = callAs(token, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "application/json",
                "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\",\"spec\":"
                        + "{\"namespace\":\"" + namespace + "\"}}", null);
        assertThat(r.code()).isEqualTo(201);
        return r.body().path("status");
    }

    @Test
    void anImpersonatedExtraIsRefusedNotIgnored() {
        Reply r = impersonating(Identities.ADMIN_TOKEN, AGENT,
                "Impersonate-Extra-authentication.kubernetes.io%2fnode-name", "node-b");
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.message()).isEqualTo("Impersonate-Extra-authentication.kubernetes.io%2fnode-name: not supported"
                + " by the local API server; accepted: Impersonate-User and Impersonate-Group");
    }

    private Reply impersonating(String token, String as, String... headers) {
        try {
            var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.url()
                    + "/api/v1/namespaces/default/secrets")).header("Authorization", "Bearer " + token)
                    .header("Impersonate-User", as);
            for (int i = 0; i < headers.length; i += 2) {
                b.header(headers[i], headers[i + 1]);
            }
            var r = http.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), JSON.readTree(r.body()), r);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode review(String token, String verb, String group, String resource, String namespace,
            String name) {
        String body = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":"
                + "{\"resourceAttributes\":{\"verb\":\"" + verb + "\",\"group\":\"" + group + "\",\"resource\":\""
                + resource + "\",\"namespace\":\"" + namespace + "\",\"name\":\"" + name + "\"}}}";
        Reply r = callAs(token, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json",
                body, null);
        assertThat(r.code()).isEqualTo(201);
        return r.body().path("status");
    }
}
