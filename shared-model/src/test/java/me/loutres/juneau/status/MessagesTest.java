package me.loutres.juneau.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.allocation.AllocationResult;
import me.loutres.juneau.allocation.Allocator;
import me.loutres.juneau.allocation.NetworkResolution;
import me.loutres.juneau.allocation.PoolUsage;
import me.loutres.juneau.ip.Ipv4;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MessagesTest {

    @Test
    void exhaustedReadsLikeTheSpecAndSaysWhatToDo() {
        String m = Messages.exhausted("public", List.of(new PoolUsage("pool-a", 254, 254), new PoolUsage("pool-b", 16, 16)));
        assertThat(m).startsWith(
                "no free address in AddressPools pool-a (254/254 used), pool-b (16/16 used) of ExternalNetwork \"public\"; ")
                .contains("append an entry to one of these AddressPools")
                .contains("add another AddressPool to the ExternalNetwork");
        assertThat(Messages.exhausted("public", List.of(new PoolUsage("pool-a", 254, 254))))
                .startsWith("no free address in AddressPool pool-a (254/254 used) of ExternalNetwork \"public\"; ");
        assertThat(Messages.exhausted("public", List.of()))
                .isEqualTo("no free address: ExternalNetwork \"public\" has no AddressPool to allocate from; "
                        + "create the AddressPools it lists");
    }

    @Test
    void requestedInUseNamesTheHolderAndTheAnnotation() {
        assertThat(Messages.requestedInUse("10.0.0.5", "shop/web"))
                .startsWith("requested IP 10.0.0.5 is already the VIP of Service shop/web; ")
                .contains("juneau.loutres.me/load-balancer-requested-ip")
                .contains("gets the address as soon as it is released");
        assertThat(Messages.requestedInUse("10.0.0.5", Allocator.NODE_ADDRESS_HOLDER))
                .startsWith("requested IP 10.0.0.5 is the InternalIP of a Node");
        assertThat(Messages.requestedInUse("10.96.0.5", Allocator.CLUSTER_RANGE_HOLDER))
                .startsWith("requested IP 10.96.0.5 lies in a range the cluster network uses (a ServiceCIDR or a "
                        + "Node's podCIDR; condition Overlap of the AddressPool names it)")
                .contains("juneau.loutres.me/load-balancer-requested-ip");
    }

    @Test
    void requestedOutsideListsTheUsableRanges() {
        assertThat(Messages.requestedOutside("10.0.0.0", "public", List.of("10.0.0.1-10.0.0.254 (pool-a)")))
                .startsWith("requested IP 10.0.0.0 is outside every AddressPool of ExternalNetwork \"public\" "
                        + "(usable: 10.0.0.1-10.0.0.254 (pool-a); network and broadcast addresses")
                .contains("to an address inside these ranges, or remove it");
    }

    static Stream<Arguments> results() {
        long a = Ipv4.parse("10.0.0.9");
        return Stream.of(
                Arguments.of(new AllocationResult.Allocated("pool-a", a),
                        new AllocationState.Allocated("10.0.0.9", "pool-a")),
                Arguments.of(new AllocationResult.Exhausted(List.of(new PoolUsage("pool-a", 2, 2))),
                        new AllocationState.Pending("PoolExhausted",
                                Messages.exhausted("public", List.of(new PoolUsage("pool-a", 2, 2))))),
                Arguments.of(new AllocationResult.RequestedInUse(a, "ns/x"),
                        new AllocationState.Pending("RequestedIPInUse", Messages.requestedInUse("10.0.0.9", "ns/x"))),
                // no release frees an address the cluster network uses: a configuration mistake, not a wait
                Arguments.of(new AllocationResult.RequestedInUse(a, Allocator.CLUSTER_RANGE_HOLDER),
                        new AllocationState.Failed("InvalidConfig",
                                Messages.requestedInUse("10.0.0.9", Allocator.CLUSTER_RANGE_HOLDER))),
                Arguments.of(new AllocationResult.RequestedOutsidePools(a, List.of("r")),
                        new AllocationState.Failed("InvalidConfig",
                                Messages.requestedOutside("10.0.0.9", "public", List.of("r")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("results")
    void allocationResultsMapToStates(AllocationResult result, AllocationState expected) {
        assertThat(AllocationState.of(result, "public")).isEqualTo(expected);
    }

    @Test
    void unavailableNetworkIsAnError() {
        assertThat(AllocationState.of(new NetworkResolution.Unavailable("ExternalNetwork \"x\" does not exist")))
                .isEqualTo(new AllocationState.Failed("ExternalNetworkUnavailable", "ExternalNetwork \"x\" does not exist"));
    }
}
