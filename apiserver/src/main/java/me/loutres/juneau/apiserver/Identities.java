package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Bearer tokens of the local API server and who they stand for, as kube-apiserver's {@code --token-auth-file} and
 * bound service-account tokens: the admin (group {@code system:masters}), the controller's and the webhook's service
 * accounts, and one token per node for the node agent's service account, carrying that node's name in
 * {@code userInfo.extra["authentication.kubernetes.io/node-name"]} as the token of a pod on that node does (the
 * webhook refuses an agent's writes about another node by it). A request without a known token is refused
 * (anonymous authentication is off).
 */
public final class Identities {
    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * The fixed identities' tokens are the process's, random (no token in this source opens a running {@code up});
     * the kubeconfigs {@code up} writes carry them, and a server started again in the process accepts them.
     */
    public static final String ADMIN_TOKEN = "juneau-local-admin-" + secret();
    public static final String CONTROLLER_TOKEN = "juneau-local-controller-" + secret();
    public static final String WEBHOOK_TOKEN = "juneau-local-webhook-" + secret();
    public static final String ADMIN_USERNAME = "kubernetes-admin";
    public static final String AGENT_USERNAME = "system:serviceaccount:juneau-system:juneau-agent";
    public static final String WEBHOOK_USERNAME = "system:serviceaccount:juneau-system:juneau-webhook";
    /** The extra of a bound service-account token that names the node of its pod. */
    public static final String NODE_NAME_EXTRA = "authentication.kubernetes.io/node-name";

    private static final Map<String, UserInfo> FIXED = Map.of(
            ADMIN_TOKEN, new UserInfoBuilder().withUsername(ADMIN_USERNAME)
                    .withGroups(List.of("system:masters", "system:authenticated")).build(),
            CONTROLLER_TOKEN, serviceAccount(JuneauConstants.DEFAULT_CONTROLLER_USERNAME),
            WEBHOOK_TOKEN, serviceAccount(WEBHOOK_USERNAME));

    /**
     * Agent tokens are the process's, as the CA is ({@link LocalApiServer}): an API server started again accepts the
     * tokens its predecessor issued, as a restarted kube-apiserver accepts tokens signed with the same key.
     */
    private static final Map<String, UserInfo> AGENTS = new ConcurrentHashMap<>();
    private static final Map<String, String> AGENT_TOKEN_BY_NODE = new ConcurrentHashMap<>();

    private Identities() {
    }

    private static String secret() {
        byte[] secret = new byte[16];
        RANDOM.nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    /** The user of a service account name {@code system:serviceaccount:<ns>:<name>}, with its groups. */
    static UserInfo serviceAccount(String username) {
        String[] p = username.split(":");
        String ns = p.length > 2 ? p[2] : "";
        return new UserInfoBuilder().withUsername(username).withGroups(List.of("system:serviceaccounts",
                "system:serviceaccounts:" + ns, "system:authenticated")).build();
    }

    static UserInfo garbageCollector() {
        return serviceAccount(JuneauConstants.GARBAGE_COLLECTOR_USERNAME);
    }

    static UserInfo namespaceController() {
        return serviceAccount(JuneauConstants.NAMESPACE_CONTROLLER_USERNAME);
    }

    /** The user of one of the fixed tokens (admin, controller, webhook); for in-process callers and tests. */
    static UserInfo fixed(String token) {
        UserInfo user = FIXED.get(token);
        if (user == null) {
            throw new IllegalArgumentException("not a fixed token of the local API server: " + token);
        }
        return user;
    }

    /**
     * The node agent's token for one node: made on first use (random, so one node's agent cannot derive another's)
     * and the same afterwards.
     */
    public static String agentToken(String node) {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("an agent token needs the name of its node");
        }
        return AGENT_TOKEN_BY_NODE.computeIfAbsent(node, n -> {
            String token = "juneau-local-agent-" + n + "-" + secret();
            UserInfo sa = serviceAccount(AGENT_USERNAME);
            AGENTS.put(token, new UserInfoBuilder(sa).withExtra(Map.of(NODE_NAME_EXTRA, List.of(n))).build());
            return token;
        });
    }

    /** The user of an {@code Authorization} header value; empty when absent or unknown (a 401). */
    static Optional<UserInfo> authenticate(String header) {
        if (header == null || !header.startsWith("Bearer ")) {
            return Optional.empty();
        }
        String token = header.substring("Bearer ".length()).trim();
        UserInfo user = FIXED.get(token);
        return Optional.ofNullable(user != null ? user : AGENTS.get(token));
    }

    /** The user {@code kubectl --as} asks for; a service account gets its groups, as kube-apiserver gives them. */
    static UserInfo impersonated(String username, List<String> groups) {
        if (username.startsWith("system:serviceaccount:") && groups.isEmpty()) {
            return serviceAccount(username);
        }
        List<String> all = new java.util.ArrayList<>(groups);
        if (!all.contains("system:authenticated")) {
            all.add("system:authenticated");
        }
        return new UserInfoBuilder().withUsername(username).withGroups(all).build();
    }
}
