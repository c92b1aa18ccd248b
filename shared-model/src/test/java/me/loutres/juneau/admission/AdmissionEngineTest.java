package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.slb;
import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.KubeObjects;
import org.junit.jupiter.api.Test;

/** The engine's envelope: endpoints, settings, and answers for requests that are not what they should be. */
class AdmissionEngineTest {
    final AdmissionEngine engine = new AdmissionEngine(AdmissionSettings.defaults());

    @Test
    void tenEndpointsWithTheirWebhookNames() {
        assertThat(AdmissionEngine.ENDPOINTS).extracting(Endpoint::path).containsExactly("/mutate/services",
                "/validate/services", "/validate/addresspools", "/validate/externalnetworks",
                "/validate/serviceloadbalancers", "/validate/arpadvertisements", "/validate/bgppeers",
                "/validate/bfdprofiles", "/validate/bgpsessions", "/validate/nodenetworks");
        assertThat(AdmissionEngine.ENDPOINTS).extracting(Endpoint::webhookName).containsExactly(
                "services.mutate.juneau.loutres.me", "services.validate.juneau.loutres.me",
                "addresspools.validate.juneau.loutres.me", "externalnetworks.validate.juneau.loutres.me",
                "serviceloadbalancers.validate.juneau.loutres.me", "arpadvertisements.validate.juneau.loutres.me",
                "bgppeers.validate.juneau.loutres.me", "bfdprofiles.validate.juneau.loutres.me",
                "bgpsessions.validate.juneau.loutres.me", "nodenetworks.validate.juneau.loutres.me");
        assertThat(AdmissionEngine.ENDPOINTS).filteredOn(Endpoint::mutating).extracting(Endpoint::path)
                .containsExactly("/mutate/services");
        assertThat(AdmissionEngine.endpointsFor("services")).extracting(Endpoint::mutating).containsExactly(true, false);
        assertThat(AdmissionEngine.resourceOf("", "Service")).contains("services");
        assertThat(AdmissionEngine.resourceOf(JuneauConstants.GROUP, "AddressPool")).contains("addresspools");
        assertThat(AdmissionEngine.resourceOf("apps", "Deployment")).isEmpty();
    }

    @Test
    void aMissingRequestIsADenialNotAnException() {
        AdmissionResponse response = engine.review("/validate/services", null, Fixtures.cluster());
        assertThat(response.getAllowed()).isFalse();
        assertThat(response.getStatus().getCode()).isEqualTo(403);
        assertThat(response.getStatus().getMessage()).isEqualTo("the AdmissionReview has no request");
    }

    @Test
    void anObjectThatIsNotAMapIsADenial() {
        AdmissionRequest request = Requests.service("CREATE").build();
        request.setObject("just text");
        AdmissionResponse response = engine.review("/validate/services", request, Fixtures.cluster());
        assertThat(response.getAllowed()).isFalse();
        assertThat(response.getStatus().getMessage()).startsWith("the object is not valid JSON");
    }

    @Test
    void anObjectOfTheWrongShapeIsADenialNamingTheField() {
        // a generic map, as a servlet that does not bind objects to model types would pass it on
        AdmissionRequest request = Requests.service("CREATE").build();
        request.setObject(KubeObjects.mapper().convertValue(Requests.yaml(svc("a").yaml().replace("ports:\n", "ports: 80\n")
                .replaceAll("(?m)^  - \\{name: http.*\\n", "")), java.util.Map.class));
        AdmissionResponse response = engine.review("/validate/services", request, Fixtures.cluster());
        assertThat(response.getAllowed()).isFalse();
        assertThat(response.getStatus().getMessage()).isEqualTo("spec.ports: 80 has the wrong type for Service; expected a list");
    }

    @Test
    void anUpdateWhoseNewObjectIsNotAMapIsDeniedAsAnyOtherWriteNotAReviewFailure() {
        // found by the 100,000-case fuzz run: the break-glass check copied the new object as a map
        // the old objects carry finalizers, so the check goes on to compare the objects
        String web = slb("default", "web", "public", "192.0.2.1", "");
        String arp = Manifests.arp("slb-default-web", "public", "192.0.2.1", "node-a", "  finalizers: [example.com/keep]\n");
        for (String path : List.of("/validate/serviceloadbalancers", "/validate/arpadvertisements")) {
            boolean slbs = path.endsWith("serviceloadbalancers");
            AdmissionRequest request = (slbs ? Requests.slb("UPDATE").oldObject(web) : Requests.arp("UPDATE").oldObject(arp))
                    .user("alice").build();
            request.setObject(KubeObjects.mapper().getNodeFactory().textNode("\u0000"));
            AdmissionResponse response = engine.review(path, request, Fixtures.cluster());
            assertThat(response.getAllowed()).isFalse();
            assertThat(response.getStatus().getMessage()).contains("is managed by Juneau")
                    .doesNotContain("could not be reviewed");
        }
    }

    @Test
    void controllerIdentitiesAreConfigurable() {
        String other = "system:serviceaccount:lb:juneau";
        AdmissionEngine custom = new AdmissionEngine(new AdmissionSettings(Set.of(other), List.of()));
        String web = slb("default", "web", "public", "192.0.2.1", "");

        assertThat(custom.review("/validate/serviceloadbalancers", Requests.slb("CREATE").object(web).user(other).build(),
                Fixtures.cluster()).getAllowed()).isTrue();
        AdmissionResponse denied = custom.review("/validate/serviceloadbalancers",
                Requests.slb("CREATE").object(web).user(Requests.CONTROLLER).build(), Fixtures.cluster());
        assertThat(denied.getAllowed()).isFalse();
        assertThat(denied.getStatus().getMessage()).isEqualTo("ServiceLoadBalancer default/web is managed by Juneau; "
                + "edit Service default/web instead (request by \"" + Requests.CONTROLLER + "\")");
    }

    @Test
    void settingsDefaultToTheControllerAndRefuseABadReservedCidr() {
        assertThat(AdmissionSettings.defaults().controllerUsernames()).containsExactly(JuneauConstants.DEFAULT_CONTROLLER_USERNAME);
        assertThat(new AdmissionSettings(null, null).controllerUsernames()).containsExactly(JuneauConstants.DEFAULT_CONTROLLER_USERNAME);
        assertThat(new AdmissionSettings(Set.of(), List.of("10.96.0.0/12", "0.0.0.0/0", "192.168.1.1")).reservedRanges())
                .extracting(r -> r.range().toString())
                .containsExactly("10.96.0.0-10.111.255.255", "0.0.0.0-255.255.255.255", "192.168.1.1");
        assertThatThrownBy(() -> new AdmissionSettings(Set.of(), List.of("10.96.0.0/33")))
                .hasMessage("reserved CIDR \"10.96.0.0/33\" is not valid; expected a.b.c.d/N with N from 0 to 32 (such as 10.96.0.0/12) or one address");
    }
}
