package me.loutres.juneau.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NetworkResolverTest {

    private static AddressPool pool(String name, String mode, String... entries) {
        AddressPool p = new AddressPool();
        p.setMetadata(new ObjectMetaBuilder().withName(name).build());
        p.setSpec(new AddressPoolSpec(mode, List.of(entries)));
        return p;
    }

    private static ExternalNetwork network(String name, String type, String... pools) {
        ExternalNetwork n = new ExternalNetwork();
        n.setMetadata(new ObjectMetaBuilder().withName(name).build());
        n.setSpec(new ExternalNetworkSpec(type, List.of(pools)));
        return n;
    }

    private static final Map<String, AddressPool> POOLS = new HashMap<>();

    static {
        for (AddressPool p : List.of(pool("bgp-a", "bgp", "10.0.0.0/24"), pool("bgp-b", "bgp", "10.0.1.0/24"),
                pool("arp-a", "arp", "10.0.2.1-10.0.2.9"), pool("empty", "bgp"),
                pool("broken", "bgp", "10.0.3.0/24", "10.0.4.0"))) {
            POOLS.put(p.getMetadata().getName(), p);
        }
    }

    @Test
    void usableNetworkKeepsSpecOrder() {
        NetworkResolution r = NetworkResolver.resolve("public", network("public", "bgp", "bgp-b", "bgp-a"),
                POOLS::get);
        assertThat(r).isInstanceOf(NetworkResolution.Usable.class);
        NetworkResolution.Usable u = (NetworkResolution.Usable) r;
        assertThat(u.networkName()).isEqualTo("public");
        assertThat(u.type()).isEqualTo("bgp");
        assertThat(u.poolNames()).containsExactly("bgp-b", "bgp-a");
        assertThat(u.pools()).containsExactly(POOLS.get("bgp-b"), POOLS.get("bgp-a"));
    }

    static Stream<Arguments> unavailable() {
        return Stream.of(
                Arguments.of("no annotation", "", null,
                        List.of("has no annotation juneau.loutres.me/load-balancer-external-network", "set it to")),
                Arguments.of("missing network", "public", null,
                        List.of("ExternalNetwork \"public\" does not exist", "create it")),
                Arguments.of("bad type", "public", network("public", "l2", "bgp-a"),
                        List.of("ExternalNetwork \"public\" has spec.type \"l2\"", "must be bgp or arp")),
                Arguments.of("no pools", "public", network("public", "bgp"),
                        List.of("ExternalNetwork \"public\" lists no AddressPools", "add at least one bgp AddressPool")),
                Arguments.of("a listed pool is missing", "public", network("public", "bgp", "bgp-a", "gone"),
                        List.of("AddressPool \"gone\" listed by ExternalNetwork \"public\" does not exist",
                                "create it with advertiseMode bgp")),
                Arguments.of("mode mismatch", "public", network("public", "bgp", "arp-a"),
                        List.of("AddressPool \"arp-a\" has advertiseMode arp but ExternalNetwork \"public\" has type bgp",
                                "list only bgp pools")),
                Arguments.of("every problem at once", "public", network("public", "arp", "gone", "bgp-a"),
                        List.of("AddressPool \"gone\" listed by", "; AddressPool \"bgp-a\" has advertiseMode bgp")),
                Arguments.of("pool without addresses", "public", network("public", "bgp", "empty"),
                        List.of("AddressPool \"empty\" has no addresses", "add an entry")),
                Arguments.of("pool with an unparsable entry", "public", network("public", "bgp", "broken"),
                        List.of("AddressPool \"broken\" has an invalid entry", "\"10.0.4.0\" has no prefix length")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unavailable")
    void unavailableNamesTheObjectAndWhatToDo(String why, String name, ExternalNetwork net, List<String> parts) {
        NetworkResolution r = NetworkResolver.resolve(name, net, POOLS::get);
        assertThat(r).isInstanceOf(NetworkResolution.Unavailable.class);
        String message = ((NetworkResolution.Unavailable) r).message();
        for (String part : parts) {
            assertThat(message).contains(part);
        }
    }
}
