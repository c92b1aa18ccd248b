package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who may use a network at admission (docs/admission.md, "Who may use the network"): the Service webhook asks the
 * shared rule (policy/NetworkAccess) with the view's Namespace labels and the Service's own, and the ExternalNetwork
 * webhook refuses a serviceAllocation the rule could not read. Each denial with its whole message.
 */
class ServiceAllocationAdmissionTest {
    static final AdmissionEngine ENGINE = new AdmissionEngine(AdmissionSettings.defaults());
    static final String SERVICES = "/validate/services";
    static final String NETWORKS = "/validate/externalnetworks";
    static final String FIELD = "metadata.annotations[\"" + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + "\"]: ";

    static String namespace(String name, String labels) {
        return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + (labels == null ? "" : "\n  labels: " + labels)
                + "\n";
    }

    static String shared(String allocation) {
        return Manifests.network("shared", "bgp", "pool-free") + "  serviceAllocation: " + allocation + "\n";
    }

    static ClusterView cluster() {
        return Fixtures.view(Manifests.pool("pool-free", "bgp", "100.64.0.0/24"),
                Manifests.pool("pool-edge", "bgp", "100.64.2.0/24"), Manifests.pool("pool-spare", "bgp", "100.64.3.0/24"),
                shared("{namespaces: [team-a], namespaceSelectors: [{matchLabels: {tenant: gold}}]}"),
                Manifests.network("edge", "bgp", "pool-edge")
                        + "  serviceAllocation: {serviceSelectors: [{matchLabels: {exposure: internet}}]}\n",
                namespace("team-a", null), namespace("team-gold", "{tenant: gold}"), namespace("team-b", "{tenant: silver}"));
    }

    static String service(String ns, String network, String labels) {
        String yaml = Manifests.svc("web").ns(ns).annotation(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, network).yaml();
        return labels == null ? yaml : yaml.replace("  resourceVersion: \"4711\"\n",
                "  resourceVersion: \"4711\"\n  labels: " + labels + "\n");
    }

    static Arguments allow(String rule, String path, Supplier<Requests> r) {
        return Arguments.of(rule, path, r, null);
    }

    static Arguments deny(String rule, String path, Supplier<Requests> r, String message) {
        return Arguments.of(rule, path, r, message);
    }

    static Stream<Arguments> cases() {
        String whoMayShared = "it allows namespace team-a, or namespaces labelled tenant=gold";
        return Stream.of(
                allow("listed by name", SERVICES, () -> Requests.service("CREATE").object(service("team-a", "shared", null))),
                allow("selected by its Namespace's labels", SERVICES,
                        () -> Requests.service("CREATE").object(service("team-gold", "shared", null))),
                deny("neither listed nor selected", SERVICES,
                        () -> Requests.service("CREATE").object(service("team-b", "shared", null)),
                        FIELD + "namespace team-b may not use ExternalNetwork shared: " + whoMayShared),
                deny("a Namespace the view does not know is selected by no selector", SERVICES,
                        () -> Requests.service("CREATE").object(service("team-new", "shared", "{tenant: gold}")),
                        FIELD + "namespace team-new may not use ExternalNetwork shared: " + whoMayShared
                                + " (Namespace team-new is not known here, so no namespace selector selects it)"),
                allow("the Service's own labels", SERVICES,
                        () -> Requests.service("CREATE").object(service("team-b", "edge", "{exposure: internet}"))),
                deny("the Service's own labels, missing", SERVICES,
                        () -> Requests.service("CREATE").object(service("team-b", "edge", "{exposure: intranet}")),
                        FIELD + "Service team-b/web may not use ExternalNetwork edge: it allows only Services labelled"
                                + " exposure=internet"),
                allow("an UPDATE that changes nothing Juneau reads is not judged again (labels included)", SERVICES,
                        () -> Requests.service("UPDATE").oldObject(service("team-b", "edge", "{exposure: internet}"))
                                .object(service("team-b", "edge", "{exposure: intranet}"))),
                allow("a Service being deleted is not judged against other objects", SERVICES,
                        () -> Requests.service("UPDATE").oldObject(service("team-b", "shared", null))
                                .object(Manifests.svc("web").ns("team-b").annotation(
                                        JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "shared").deleting().yaml())),
                allow("network: a valid serviceAllocation", NETWORKS, () -> Requests.network("CREATE")
                        .object(Manifests.network("other", "bgp", "pool-spare") + "  serviceAllocation: {namespaces:"
                                + " [team-a], namespaceSelectors: [{matchExpressions: [{key: tenant, operator: In,"
                                + " values: [gold]}]}], serviceSelectors: [{}]}\n")),
                allow("network: empty lists", NETWORKS, () -> Requests.network("CREATE")
                        .object(Manifests.network("other", "bgp", "pool-spare") + "  serviceAllocation: {namespaces:"
                                + " [], namespaceSelectors: [], serviceSelectors: []}\n")),
                deny("network: bad names and selectors, each named", NETWORKS, () -> Requests.network("CREATE")
                        .object(Manifests.network("other", "bgp", "pool-spare") + "  serviceAllocation: {namespaces:"
                                + " [Team_A, team-a, team-a], namespaceSelectors: [{matchExpressions: [{key: tenant,"
                                + " operator: Exists, values: [gold]}]}], serviceSelectors: [{matchLabels:"
                                + " {tier: \"not valid\"}}]}\n"),
                        "spec.serviceAllocation.namespaces[0]: \"Team_A\" is not a namespace name; accepted: a"
                                + " namespace name (a DNS-1123 label: at most 63 lowercase letters, digits and '-', starting"
                                + " and ending with a letter or digit); spec.serviceAllocation.namespaces[2]: \"team-a\" is"
                                + " already listed at spec.serviceAllocation.namespaces[1]; list each namespace once;"
                                + " spec.serviceAllocation.namespaceSelectors[0].matchExpressions[0].values: \"gold\" given"
                                + " with operator Exists; accepted: no values for Exists and DoesNotExist;"
                                + " spec.serviceAllocation.serviceSelectors[0].matchLabels[\"tier\"]: \"not valid\" is not a"
                                + " valid label value; accepted: a label value: empty, or at most 63 letters, digits, '-',"
                                + " '_' or '.', starting and ending with a letter or digit"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(String rule, String path, Supplier<Requests> r, String denial) {
        AdmissionRequest request = r.get().build();
        AdmissionResponse response = ENGINE.review(path, request, cluster());
        if (denial == null) {
            assertThat(response.getStatus()).as("denial").isNull();
            assertThat(response.getAllowed()).isTrue();
        } else {
            assertThat(response.getAllowed()).isFalse();
            assertThat(response.getStatus().getCode()).isEqualTo(403);
            assertThat(response.getStatus().getMessage()).isEqualTo(denial);
        }
    }
}
