package me.loutres.juneau.cli.local;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Bearer tokens of the local API server and who they stand for. The mock server authenticates nobody, so the
 * token is how the admission webhook learns whether a write came from a person or from the controller.
 */
public final class Identities {
    public static final String ADMIN_TOKEN = "juneau-local-admin";
    public static final String CONTROLLER_TOKEN = "juneau-local-controller";
    /** The node agents (SPEC §8): they may write only ARPAdvertisement status. */
    public static final String AGENT_TOKEN = "juneau-local-agent";
    public static final String ADMIN_USERNAME = "kubernetes-admin";

    private static final Map<String, UserInfo> BY_TOKEN = Map.of(
            ADMIN_TOKEN, new UserInfoBuilder().withUsername(ADMIN_USERNAME)
                    .withGroups(List.of("system:masters", "system:authenticated")).build(),
            CONTROLLER_TOKEN, new UserInfoBuilder().withUsername(JuneauConstants.DEFAULT_CONTROLLER_USERNAME)
                    .withGroups(List.of("system:serviceaccounts", "system:serviceaccounts:juneau-system",
                            "system:authenticated")).build(),
            AGENT_TOKEN, new UserInfoBuilder().withUsername(JuneauConstants.DEFAULT_AGENT_USERNAME)
                    .withGroups(List.of("system:serviceaccounts", "system:serviceaccounts:juneau-system",
                            "system:authenticated")).build());

    private Identities() {
    }

    /** The user of an {@code Authorization} header value; anonymous when absent or unknown. */
    static UserInfo fromAuthorization(String header) {
        if (header != null && header.startsWith("Bearer ")) {
            UserInfo user = BY_TOKEN.get(header.substring("Bearer ".length()).trim());
            if (user != null) {
                return user;
            }
        }
        return new UserInfoBuilder().withUsername("system:anonymous").withGroups(List.of("system:unauthenticated"))
                .build();
    }
}
