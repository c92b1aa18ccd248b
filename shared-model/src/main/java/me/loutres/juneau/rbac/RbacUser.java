package me.loutres.juneau.rbac;

import java.util.List;

/** Who asks, as RBAC sees it: the user name and the groups the authenticator gave it. */
public record RbacUser(String name, List<String> groups) {
    public RbacUser {
        groups = groups == null ? List.of() : List.copyOf(groups);
    }

    public boolean inGroup(String group) {
        return groups.contains(group);
    }
}
