package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The discovery documents kubectl reads before anything else ({@code /api}, {@code /apis}, {@code /apis/<group>},
 * resource lists), built from the registry so a created CRD appears in them as on a cluster.
 */
final class Discovery {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final Registry registry;

    Discovery(Registry registry) {
        this.registry = registry;
    }

    ObjectNode coreVersions(String serverAddress) {
        ObjectNode n = F.objectNode();
        n.put("kind", "APIVersions");
        n.putArray("versions").add("v1");
        n.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0")
                .put("serverAddress", serverAddress);
        return n;
    }

    private Map<String, List<String>> groups() {
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (String gv : registry.groupVersions().keySet()) {
            int slash = gv.indexOf('/');
            if (slash > 0) {
                versions.computeIfAbsent(gv.substring(0, slash), g -> new ArrayList<>()).add(gv.substring(slash + 1));
            }
        }
        return versions;
    }

    ObjectNode groupList() {
        ObjectNode n = F.objectNode();
        n.put("kind", "APIGroupList");
        n.put("apiVersion", "v1");
        ArrayNode list = n.putArray("groups");
        groups().forEach((group, versions) -> list.add(group(group, versions)));
        return n;
    }

    Optional<ObjectNode> group(String name) {
        List<String> versions = groups().get(name);
        if (versions == null) {
            return Optional.empty();
        }
        ObjectNode g = group(name, versions);
        g.put("kind", "APIGroup");
        g.put("apiVersion", "v1");
        return Optional.of(g);
    }

    private static ObjectNode group(String name, List<String> versions) {
        ObjectNode g = F.objectNode();
        g.put("name", name);
        ArrayNode vs = g.putArray("versions");
        for (String v : versions) {
            vs.addObject().put("groupVersion", name + "/" + v).put("version", v);
        }
        g.putObject("preferredVersion").put("groupVersion", name + "/" + versions.get(0)).put("version",
                versions.get(0));
        return g;
    }

    /** The resource list of one group/version, e.g. {@code v1} or {@code juneau.loutres.me/v1alpha1}. */
    Optional<ObjectNode> resourceList(String groupVersion) {
        List<ResourceType> types = registry.groupVersions().get(groupVersion);
        if (types == null) {
            return Optional.empty();
        }
        ObjectNode n = F.objectNode();
        n.put("kind", "APIResourceList");
        n.put("apiVersion", "v1");
        n.put("groupVersion", groupVersion);
        ArrayNode list = n.putArray("resources");
        for (ResourceType t : types) {
            ObjectNode r = list.addObject();
            r.put("name", t.plural()).put("singularName", t.singular()).put("namespaced", t.namespaced())
                    .put("kind", t.kind());
            ArrayNode verbs = r.putArray("verbs");
            t.verbs().forEach(verbs::add);
            if (!t.shortNames().isEmpty()) {
                ArrayNode sn = r.putArray("shortNames");
                t.shortNames().forEach(sn::add);
            }
            if (t.statusSubresource()) {
                ObjectNode s = list.addObject();
                s.put("name", t.plural() + "/status").put("singularName", "").put("namespaced", t.namespaced())
                        .put("kind", t.kind());
                s.putArray("verbs").add("get").add("patch").add("update");
            }
        }
        return Optional.of(n);
    }
}
