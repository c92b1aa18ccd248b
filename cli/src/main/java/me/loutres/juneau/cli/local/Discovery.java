package me.loutres.juneau.cli.local;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersions;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import me.loutres.juneau.api.JuneauConstants;

/**
 * The discovery documents kubectl reads before it does anything ({@code /api}, {@code /apis}, resource lists).
 * The mock API server has none of its own, so the local API server serves these for the kinds Juneau uses.
 */
final class Discovery {
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");
    private static final List<String> SUB_VERBS = List.of("get", "patch", "update");

    /** group/version ("v1" for the core group) -> resources. */
    private final Map<String, List<APIResource>> resources = new LinkedHashMap<>();

    Discovery() {
        add("v1", "namespaces", "namespace", "Namespace", false, true, "ns");
        add("v1", "services", "service", "Service", true, true, "svc");
        add("v1", "nodes", "node", "Node", false, true, "no");
        add("v1", "events", "event", "Event", true, false, "ev");
        add("v1", "pods", "pod", "Pod", true, true, "po");
        add("v1", "endpoints", "endpoints", "Endpoints", true, false, "ep");
        add("v1", "configmaps", "configmap", "ConfigMap", true, false, "cm");
        add("v1", "secrets", "secret", "Secret", true, false);
        add("v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true, false, "sa");
        add("discovery.k8s.io/v1", "endpointslices", "endpointslice", "EndpointSlice", true, false);
        add("coordination.k8s.io/v1", "leases", "lease", "Lease", true, false);
        add("apiextensions.k8s.io/v1", "customresourcedefinitions", "customresourcedefinition",
                "CustomResourceDefinition", false, true, "crd", "crds");
        add("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations", "validatingwebhookconfiguration",
                "ValidatingWebhookConfiguration", false, false);
        add("admissionregistration.k8s.io/v1", "mutatingwebhookconfigurations", "mutatingwebhookconfiguration",
                "MutatingWebhookConfiguration", false, false);
        String juneau = JuneauConstants.API_VERSION;
        add(juneau, JuneauConstants.PLURAL_ADDRESS_POOLS, "addresspool", JuneauConstants.KIND_ADDRESS_POOL, false,
                true);
        add(juneau, JuneauConstants.PLURAL_EXTERNAL_NETWORKS, "externalnetwork",
                JuneauConstants.KIND_EXTERNAL_NETWORK, false, false);
        add(juneau, JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, "serviceloadbalancer",
                JuneauConstants.KIND_SERVICE_LOAD_BALANCER, true, true, "slb");
        add(juneau, JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, "arpadvertisement",
                JuneauConstants.KIND_ARP_ADVERTISEMENT, false, true);
    }

    private void add(String groupVersion, String plural, String singular, String kind, boolean namespaced,
            boolean status, String... shortNames) {
        List<APIResource> list = resources.computeIfAbsent(groupVersion, k -> new ArrayList<>());
        list.add(new APIResourceBuilder().withName(plural).withSingularName(singular).withKind(kind)
                .withNamespaced(namespaced).withVerbs(VERBS).withShortNames(shortNames).build());
        if (status) {
            list.add(new APIResourceBuilder().withName(plural + "/status").withSingularName("").withKind(kind)
                    .withNamespaced(namespaced).withVerbs(SUB_VERBS).build());
        }
    }

    APIVersions coreVersions() {
        return new APIVersionsBuilder().withVersions("v1").build();
    }

    APIGroupList groups() {
        Map<String, List<GroupVersionForDiscovery>> versions = new LinkedHashMap<>();
        for (String gv : resources.keySet()) {
            int slash = gv.indexOf('/');
            if (slash < 0) {
                continue; // the core group is served at /api, not /apis
            }
            versions.computeIfAbsent(gv.substring(0, slash), g -> new ArrayList<>())
                    .add(new GroupVersionForDiscovery(gv, gv.substring(slash + 1)));
        }
        List<APIGroup> groups = new ArrayList<>();
        versions.forEach((group, list) -> groups.add(new APIGroupBuilder().withName(group).withVersions(list)
                .withPreferredVersion(list.get(0)).build()));
        return new APIGroupListBuilder().withGroups(groups).build();
    }

    /** The resource list of one group/version, e.g. {@code v1} or {@code juneau.loutres.me/v1alpha1}. */
    Optional<APIResourceList> resourceList(String groupVersion) {
        List<APIResource> list = resources.get(groupVersion);
        if (list == null) {
            return Optional.empty();
        }
        return Optional.of(new APIResourceListBuilder().withGroupVersion(groupVersion).withResources(list).build());
    }

    /** Whether a resource (plural) of a group/version is namespaced; empty when unknown. */
    Optional<Boolean> namespaced(String groupVersion, String plural) {
        return Optional.ofNullable(resources.get(groupVersion)).flatMap(list -> list.stream()
                .filter(r -> r.getName().equals(plural)).findFirst().map(APIResource::getNamespaced));
    }

    /** The kind of a resource (plural) of a group/version. */
    Optional<String> kind(String groupVersion, String plural) {
        return Optional.ofNullable(resources.get(groupVersion)).flatMap(list -> list.stream()
                .filter(r -> r.getName().equals(plural)).findFirst().map(APIResource::getKind));
    }
}
