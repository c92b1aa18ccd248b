package me.loutres.juneau.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.PortStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class BackendsTest {

    private static Service service(ServicePort... ports) {
        return new ServiceBuilder().withNewMetadata().withName("web").withNamespace("shop").endMetadata()
                .withNewSpec().withType("LoadBalancer").withPorts(ports).endSpec().build();
    }

    private static ServicePort port(String name, String protocol, int port, IntOrString target) {
        return new ServicePortBuilder().withName(name).withProtocol(protocol).withPort(port).withTargetPort(target)
                .build();
    }

    private static Endpoint ep(String node, Boolean ready, Boolean serving, Boolean terminating, String... addrs) {
        return new EndpointBuilder().withAddresses(addrs).withNodeName(node)
                .withConditions(new EndpointConditions(ready, serving, terminating)).build();
    }

    private static EndpointSlice slice(String name, String type, List<EndpointPort> ports, Endpoint... eps) {
        return new EndpointSliceBuilder().withNewMetadata().withName(name).withNamespace("shop")
                .addToLabels("kubernetes.io/service-name", "web").endMetadata()
                .withAddressType(type).withPorts(ports).withEndpoints(eps).build();
    }

    private static EndpointPort slicePort(String name, String protocol, int port) {
        EndpointPort p = new EndpointPort();
        p.setName(name);
        p.setProtocol(protocol);
        p.setPort(port);
        return p;
    }

    private static Boolean b(String s) {
        return s == null ? null : Boolean.valueOf(s);
    }

    @ParameterizedTest(name = "ready={0} serving={1} terminating={2} -> counts {3}")
    @CsvSource({
            ",,,true",
            "true,,,true",
            "false,,,false",
            ",false,,false",
            ",true,,true",
            ",,true,false",
            ",,false,true",
            "true,true,false,true",
            "true,true,true,false",
            "true,false,false,false",
            "false,true,false,false",
            "false,true,true,false",
    })
    void endpointCountsOnlyWhenReadyServingAndNotTerminating(String ready, String serving, String terminating,
            boolean counts) {
        assertThat(Backends.counts(new EndpointConditions(b(ready), b(serving), b(terminating)))).isEqualTo(counts);
        BackendState s = Backends.aggregate(service(),
                List.of(slice("s1", "IPv4", List.of(), ep("node-a", b(ready), b(serving), b(terminating), "10.1.0.1"))));
        assertThat(s.totalReady()).isEqualTo(counts ? 1 : 0);
        assertThat(s.advertisingNodes()).isEqualTo(counts ? List.of("node-a") : List.of());
    }

    @Test
    void endpointWithoutConditionsCounts() {
        Endpoint e = new EndpointBuilder().withAddresses("10.1.0.1").withNodeName("node-a").build();
        assertThat(Backends.aggregate(service(), List.of(slice("s", "IPv4", List.of(), e))).totalReady()).isOne();
    }

    @Test
    void nodesAreSortedDistinctAndAddressesCountedOnceAcrossSlices() {
        EndpointSlice one = slice("s1", "IPv4", List.of(),
                ep("node-c", true, true, false, "10.1.0.3"),
                ep("node-a", null, null, null, "10.1.0.1"),
                ep("node-a", true, null, null, "10.1.0.2"),
                ep(null, true, true, false, "10.1.0.9"),
                ep("node-z", false, false, false, "10.1.0.26"));
        EndpointSlice two = slice("s2", "IPv4", List.of(),
                ep("node-a", true, true, false, "10.1.0.1"),
                ep("node-b", true, true, false, "10.1.0.4"));
        EndpointSlice ipv6 = slice("s3", "IPv6", List.of(), ep("node-y", true, true, false, "fd00::1"));
        EndpointSlice fqdn = slice("s4", "FQDN", List.of(), ep("node-x", true, true, false, "db.example"));
        EndpointSlice other = slice("s5", "IPv4", List.of(), ep("node-w", true, true, false, "10.1.0.77"));
        other.getMetadata().getLabels().put("kubernetes.io/service-name", "another");

        BackendState s = Backends.aggregate(service(), List.of(one, two, ipv6, fqdn, other));

        assertThat(s.advertisingNodes()).containsExactly("node-a", "node-b", "node-c");
        // 10.1.0.1 (twice), .2, .3, .4 and .9 (no node, still a ready backend)
        assertThat(s.totalReady()).isEqualTo(5);
    }

    @Test
    void nothingAtAll() {
        assertThat(Backends.aggregate(service(), List.of())).isEqualTo(BackendState.none());
        assertThat(Backends.aggregate(service(), null)).isEqualTo(BackendState.none());
        assertThat(Backends.aggregate(null, null)).isEqualTo(BackendState.none());
    }

    static Stream<Arguments> ports() {
        List<EndpointPort> slicePorts = List.of(slicePort("http", "TCP", 8080), slicePort("dns", "UDP", 5353),
                slicePort("metrics", "TCP", 9100), slicePort(null, "TCP", 7000));
        return Stream.of(
                Arguments.of("integer targetPort", List.of(port("http", "TCP", 80, new IntOrString(8081))),
                        slicePorts, List.of("http:80/TCP->8081"), List.of()),
                Arguments.of("targetPort 0 means port", List.of(port("http", "TCP", 80, new IntOrString(0))),
                        slicePorts, List.of("http:80/TCP->80"), List.of()),
                Arguments.of("unset targetPort means port", List.of(port("http", "TCP", 80, null)),
                        slicePorts, List.of("http:80/TCP->80"), List.of()),
                Arguments.of("unset protocol means TCP", List.of(port("http", null, 80, null)),
                        slicePorts, List.of("http:80/TCP->80"), List.of()),
                Arguments.of("named targetPort found under the Service port's name",
                        List.of(port("http", "TCP", 80, new IntOrString("web-http"))),
                        slicePorts, List.of("http:80/TCP->8080"), List.of()),
                Arguments.of("named targetPort of an unnamed single port",
                        List.of(port(null, "TCP", 80, new IntOrString("web"))),
                        slicePorts, List.of("80/TCP->7000"), List.of()),
                Arguments.of("named targetPort needs the same protocol",
                        List.of(port("dns", "TCP", 53, new IntOrString("dns"))),
                        slicePorts, List.of(), List.of("dns")),
                Arguments.of("unresolvable named port is left out and reported",
                        List.of(port("admin", "TCP", 81, new IntOrString("admin")),
                                port("http", "TCP", 80, new IntOrString("web-http"))),
                        slicePorts, List.of("http:80/TCP->8080"), List.of("admin")),
                Arguments.of("unresolvable unnamed port is reported as port/protocol",
                        List.of(port(null, "UDP", 53, new IntOrString("dns"))),
                        List.of(), List.of(), List.of("53/UDP")),
                Arguments.of("sorted by port then protocol",
                        List.of(port("metrics", "TCP", 9100, null), port("dns", "UDP", 53, new IntOrString("dns")),
                                port("dns-tcp", "TCP", 53, new IntOrString(5353))),
                        slicePorts, List.of("dns-tcp:53/TCP->5353", "dns:53/UDP->5353", "metrics:9100/TCP->9100"),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ports")
    void portsAreResolvedAndSorted(String why, List<ServicePort> servicePorts, List<EndpointPort> slicePorts,
            List<String> expected, List<String> unresolved) {
        BackendState s = Backends.aggregate(service(servicePorts.toArray(ServicePort[]::new)),
                List.of(slice("s1", "IPv4", slicePorts, ep("node-a", true, true, false, "10.1.0.1"))));
        assertThat(s.ports()).extracting(PortStatus::toString).containsExactlyElementsOf(expected);
        assertThat(s.unresolvedPorts()).containsExactlyElementsOf(unresolved);
    }

    @Test
    void namedPortIgnoresNonIpv4SlicesAndTakesTheLowestWhenPodsDisagree() {
        Service svc = service(port("http", "TCP", 80, new IntOrString("web")));
        EndpointSlice v6 = slice("v6", "IPv6", List.of(slicePort("http", "TCP", 1111)));
        EndpointSlice a = slice("a", "IPv4", List.of(slicePort("http", "TCP", 8443)));
        EndpointSlice b = slice("b", "IPv4", List.of(slicePort("http", "TCP", 8080)));
        List<EndpointSlice> slices = new ArrayList<>(Arrays.asList(v6, a, b));
        assertThat(Backends.aggregate(svc, slices).ports()).extracting(PortStatus::getTargetPort).containsExactly(8080);
        java.util.Collections.reverse(slices);
        assertThat(Backends.aggregate(svc, slices).ports()).extracting(PortStatus::getTargetPort).containsExactly(8080);
        assertThat(Backends.aggregate(svc, List.of(v6)).unresolvedPorts()).containsExactly("http");
    }
}
