package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.network;
import static me.loutres.juneau.admission.Manifests.pool;
import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.view.ClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/admission.md, "Unclassed Services and the default network": the webhook with and without
 * {@code --manage-unclassed}, Services without the network annotation served by the ExternalNetwork marked
 * {@code juneau.loutres.me/default-network: "true"}, and at most one such network.
 */
class UnclassedServicesAdmissionTest {
    static final String NET = AdmissionRulesTest.NET;
    static final String MARK_FIELD = "metadata.annotations[\"juneau.loutres.me/default-network\"]: ";
    static final AdmissionEngine CLASSED = new AdmissionEngine(new AdmissionSettings(Set.of(Requests.CONTROLLER),
            List.of(), null, ManagedServices.CLASSED));
    static final AdmissionEngine UNCLASSED = new AdmissionEngine(new AdmissionSettings(Set.of(Requests.CONTROLLER),
            List.of(), null, ManagedServices.UNCLASSED_TOO));

    static String marked(String networkYaml, String value) {
        return networkYaml.replace("  resourceVersion: \"200\"\n", "  resourceVersion: \"200\"\n  annotations:\n    "
                + JuneauConstants.ANNOTATION_DEFAULT_NETWORK + ": \"" + value + "\"\n");
    }

    /** public (bgp) is the default; l2 (arp) is not. */
    static ClusterView oneDefault() {
        return Fixtures.view(pool("pool-a", "bgp", "192.0.2.0/24"), pool("pool-l2", "arp", "203.0.113.10-203.0.113.20"),
                pool("pool-free", "bgp", "100.64.0.0/24"),
                marked(network("public", "bgp", "pool-a"), "true"), network("l2", "arp", "pool-l2"));
    }

    /** Both marked, as only a write around the webhook could leave them. */
    static ClusterView twoDefaults() {
        return Fixtures.view(pool("pool-a", "bgp", "192.0.2.0/24"), pool("pool-l2", "arp", "203.0.113.10-203.0.113.20"),
                marked(network("public", "bgp", "pool-a"), "true"), marked(network("l2", "arp", "pool-l2"), "true"));
    }

    record Case(String name, AdmissionEngine engine, String path, Requests request, ClusterView view, boolean allowed,
                String message, String patch) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        String svcPath = "/validate/services";
        String mutPath = "/mutate/services";
        String netPath = "/validate/externalnetworks";
        return Stream.of(
                new Case("with the flag, an unclassed Service without the annotation takes the default network",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(null)), oneDefault(), true, null, null),
                new Case("with the flag, an unclassed Service is checked like a classed one (traffic policy)",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(null).policy("Cluster")), oneDefault(), false,
                        "spec.externalTrafficPolicy: \"Cluster\" is not supported; accepted: Local (Juneau announces a VIP"
                                + " only from nodes with a local ready backend)", null),
                new Case("with the flag and no default network, a Service without the annotation is denied as before",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(null)), Fixtures.cluster(), false,
                        NET + "missing; set it to the name of an ExternalNetwork (existing: broken, l2, public), or mark"
                                + " one ExternalNetwork juneau.loutres.me/default-network: \"true\" to serve Services"
                                + " without it", null),
                new Case("two default networks: the denial names both",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(null)), twoDefaults(), false,
                        NET + "missing, and ExternalNetworks l2, public are all marked juneau.loutres.me/default-network:"
                                + " \"true\", so none is the default; set the annotation to one of them, or remove the"
                                + " mark from all but one", null),
                new Case("a requested IP is checked against the default network's pools",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(null).ip("203.0.113.12")), oneDefault(),
                        false, AdmissionRulesTest.IP + "203.0.113.12 is outside every AddressPool of ExternalNetwork"
                                + " \"public\"; accepted: an address in 192.0.2.1-192.0.2.254 (AddressPool pool-a)", null),
                new Case("an empty annotation is no annotation: the default network serves it",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net(" ")), oneDefault(), true, null, null),
                new Case("the annotation wins over the default",
                        UNCLASSED, svcPath, create(svc("a").lbClass(null).net("l2").ip("203.0.113.12")), oneDefault(),
                        true, null, null),
                new Case("with the flag, another class is still never Juneau's",
                        UNCLASSED, svcPath, create(svc("a").lbClass("example.com/other").net(null).policy("Cluster")),
                        Fixtures.cluster(), true, null, null),
                new Case("without the flag, an unclassed Service is not Juneau's: no network needed",
                        CLASSED, svcPath, create(svc("a").lbClass(null).net(null).policy("Cluster")), Fixtures.cluster(),
                        true, null, null),
                new Case("without the flag, a classed Service without the annotation takes the default network too",
                        CLASSED, svcPath, create(svc("a").net(null)), oneDefault(), true, null, null),
                new Case("with the flag, the mutation sets Local on an unclassed Service",
                        UNCLASSED, mutPath, create(svc("a").lbClass(null).net(null).policy("Cluster")), oneDefault(), true,
                        null, "[{\"op\":\"replace\",\"path\":\"/spec/externalTrafficPolicy\",\"value\":\"Local\"}]"),
                new Case("without the flag, the mutation leaves an unclassed Service alone",
                        CLASSED, mutPath, create(svc("a").lbClass(null).net(null).policy("Cluster")), oneDefault(), true,
                        null, null),
                new Case("a second default network is denied, naming both",
                        CLASSED, netPath, Requests.network("CREATE").object(marked(network("n", "bgp", "pool-free"), "true")),
                        oneDefault(), false, MARK_FIELD + "ExternalNetworks \"n\" and \"public\" would both be marked"
                                + " juneau.loutres.me/default-network: \"true\"; at most one ExternalNetwork is the default;"
                                + " accepted: remove the mark from \"public\" first, or leave it off \"n\"", null),
                new Case("marking an existing network default while another is, by UPDATE, is denied too",
                        CLASSED, netPath, Requests.network("UPDATE").oldObject(network("l2", "arp", "pool-l2"))
                                .object(marked(network("l2", "arp", "pool-l2"), "true")),
                        oneDefault(), false, MARK_FIELD + "ExternalNetworks \"l2\" and \"public\" would both be marked"
                                + " juneau.loutres.me/default-network: \"true\"; at most one ExternalNetwork is the default;"
                                + " accepted: remove the mark from \"public\" first, or leave it off \"l2\"", null),
                new Case("the first default network is allowed",
                        CLASSED, netPath, Requests.network("CREATE").object(marked(network("n", "bgp", "pool-free"), "true")),
                        Fixtures.cluster(), true, null, null),
                new Case("\"false\" marks nothing and is allowed next to a default",
                        CLASSED, netPath, Requests.network("CREATE").object(marked(network("n", "bgp", "pool-free"), "false")),
                        oneDefault(), true, null, null),
                new Case("another value is denied, saying what is accepted",
                        CLASSED, netPath, Requests.network("CREATE").object(marked(network("n", "bgp", "pool-free"), "yes")),
                        oneDefault(), false, MARK_FIELD + "\"yes\" is not accepted; accepted: \"true\" (this ExternalNetwork"
                                + " serves Services without annotation juneau.loutres.me/load-balancer-external-network) or"
                                + " \"false\"", null),
                new Case("an unrelated change of one of two stored defaults is not blocked",
                        CLASSED, netPath, Requests.network("UPDATE").oldObject(marked(network("l2", "arp", "pool-l2"), "true"))
                                .object(marked(network("l2", "arp", "pool-l2"), "true")
                                        .replace("  resourceVersion:", "  labels: {team: blue}\n  resourceVersion:")),
                        twoDefaults(), true, null, null));
    }

    static Requests create(Manifests.Svc s) {
        return Requests.service("CREATE").object(s.yaml());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void verdict(Case c) {
        AdmissionRequest request = c.request().build();
        AdmissionResponse response = c.engine().review(c.path(), request, c.view());
        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        if (c.allowed()) {
            assertThat(response.getStatus()).isNull();
        } else {
            assertThat(response.getStatus().getCode()).isEqualTo(403);
            assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
        }
        if (c.patch() == null) {
            assertThat(response.getWarnings()).as("warnings").isNullOrEmpty();
            assertThat(response.getPatch()).isNull();
        } else {
            assertThat(response.getWarnings()).as("the mutation says what it set").hasSize(1);
            assertThat(new String(Base64.getDecoder().decode(response.getPatch()), StandardCharsets.UTF_8))
                    .isEqualTo(c.patch());
        }
    }
}
