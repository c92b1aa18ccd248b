package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Bearer tokens of the local API server and who they stand for (a static token file, as kube-apiserver's
 * {@code --token-auth-file}). The token is how the admission webhook tells a person from the controller.
 */
public final class Identities {
    public static final String ADMIN_TOKEN = "juneau-local-admin";
    public static final String CONTROLLER_TOKEN = "juneau-local-controller";
    public static final String AGENT_TOKEN = "juneau-local-agent";
    public static final String ADMIN_USERNAME = "kubernetes-admin";
    public static final String AGENT_USERNAME = "system:serviceaccount:juneau-system:juneau-agent";

    private static final Map<String, UserInfo> BY_TOKEN = Map.of(
            ADMIN_TOKEN, new UserInfoBuilder().withUsername(ADMIN_USERNAME)
                    .withGroups(List.of("system:masters", "system:authenticated")).build(),
            CONTROLLER_TOKEN, serviceAccount(JuneauConstants.DEFAULT_CONTROLLER_USERNAME),
            AGENT_TOKEN, serviceAccount(AGENT_USERNAME));

    private Identities() {
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

    static UserInfo anonymous() {
        return new UserInfoBuilder().withUsername("system:anonymous").withGroups(List.of("system:unauthenticated"))
                .build();
    }

    /** The user of an {@code Authorization} header value; anonymous when absent or unknown. */
    static UserInfo fromAuthorization(String header) {
        if (header != null && header.startsWith("Bearer ")) {
            UserInfo user = BY_TOKEN.get(header.substring("Bearer ".length()).trim());
            if (user != null) {
                return user;
            }
        }
        return anonymous();
    }

    /** Whether this user may act as another ({@code kubectl --as}): the cluster admins only. */
    static boolean mayImpersonate(UserInfo user) {
        return user.getGroups() != null && user.getGroups().contains("system:masters");
    }

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
