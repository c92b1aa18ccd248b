package me.loutres.juneau.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.BackendSummary;
import me.loutres.juneau.api.v1alpha1.PortStatus;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StatusCalculatorTest {
    static final String T0 = "2026-11-29T10:00:00Z";
    static final String T1 = "2026-11-29T10:05:00Z";
    static final String T2 = "2026-11-29T10:09:00Z";

    static final AllocationState VIP = new AllocationState.Allocated("10.0.0.1", "pool-a");
    static final AllocationState EXHAUSTED = new AllocationState.Pending("PoolExhausted", "no free address ...");
    static final AllocationState IN_USE = new AllocationState.Pending("RequestedIPInUse", "requested IP ...");
    static final AllocationState INVALID = new AllocationState.Failed("InvalidConfig", "outside ...");
    static final AllocationState NO_NET = new AllocationState.Failed("ExternalNetworkUnavailable", "missing ...");

    static BackendState backends(String... nodes) {
        return new BackendState(List.of(nodes), nodes.length * 2,
                List.of(new PortStatus("http", "TCP", 80, 8080)), List.of());
    }

    static ServiceLoadBalancerStatus previous(String phase) {
        if (phase == null) {
            return null;
        }
        ServiceLoadBalancerStatus s = new ServiceLoadBalancerStatus();
        s.setPhase(phase);
        return s;
    }

    static Condition condition(ServiceLoadBalancerStatus s, String type) {
        return s.getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }

    static Stream<Arguments> phases() {
        return Stream.of(
                // previous phase, allocation, nodes, network, arp node -> phase, Allocated, Available
                Arguments.of(null, EXHAUSTED, backends(), "bgp", null, "Pending", "False/PoolExhausted", "False/NotAllocated"),
                Arguments.of("Pending", IN_USE, backends("n1"), "arp", null, "Pending", "False/RequestedIPInUse", "False/NotAllocated"),
                Arguments.of(null, INVALID, backends(), "bgp", null, "Error", "False/InvalidConfig", "False/NotAllocated"),
                Arguments.of("Ready", NO_NET, backends("n1"), null, null, "Error", "False/ExternalNetworkUnavailable", "False/NotAllocated"),
                Arguments.of(null, VIP, backends(), "bgp", null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Pending", VIP, backends(), "bgp", null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Allocated", VIP, backends(), "bgp", null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Error", VIP, backends(), "bgp", null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of(null, VIP, backends("n1", "n2"), "bgp", null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("Allocated", VIP, backends("n1"), "bgp", null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of("Ready", VIP, backends(), "bgp", null, "Degraded", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Degraded", VIP, backends(), "bgp", null, "Degraded", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Degraded", VIP, backends("n2"), "bgp", null, "Ready", "True/Allocated", "True/Ready"),
                Arguments.of(null, VIP, backends("n1"), "arp", "n1", "Ready", "True/Allocated", "True/Ready"),
                Arguments.of(null, VIP, backends("n1"), "arp", null, "Allocated", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Ready", VIP, backends("n1"), "arp", null, "Degraded", "True/Allocated", "False/NoReadyBackends"),
                Arguments.of("Ready", VIP, backends(), "arp", null, "Degraded", "True/Allocated", "False/NoReadyBackends"));
    }

    @ParameterizedTest(name = "{0} + {1} nodes={2} {3}/{4} -> {5}")
    @MethodSource("phases")
    void phaseAndConditions(String prevPhase, AllocationState allocation, BackendState b, String type, String arpNode,
            String phase, String allocated, String available) {
        ServiceLoadBalancerStatus s = StatusCalculator.next(previous(prevPhase), new StatusInput(7, allocation, b, type,
                arpNode), T0);
        assertThat(s.getPhase()).isEqualTo(phase);
        Condition al = condition(s, "Allocated");
        Condition av = condition(s, "Available");
        assertThat(al.getStatus() + "/" + al.getReason()).isEqualTo(allocated);
        assertThat(av.getStatus() + "/" + av.getReason()).isEqualTo(available);
        assertThat(s.getConditions()).extracting(Condition::getType).containsExactly("Allocated", "Available");
        assertThat(s.getConditions()).allSatisfy(c -> {
            assertThat(c.getObservedGeneration()).isEqualTo(7L);
            assertThat(c.getLastTransitionTime()).isEqualTo(T0);
            assertThat(c.getMessage()).isNotBlank();
        });
        assertThat(s.getObservedGeneration()).isEqualTo(7L);
        assertThat(s.getAdvertisingNodes()).isEqualTo(b.advertisingNodes());
        assertThat(s.getBackendSummary()).isEqualTo(new BackendSummary(b.totalReady(), b.advertisingNodes().size()));
        assertThat(s.getPorts()).isEqualTo(b.ports());
        if (allocation instanceof AllocationState.Allocated a) {
            assertThat(s.getVip()).isEqualTo(a.vip());
            assertThat(s.getAddressPool()).isEqualTo(a.pool());
        } else {
            assertThat(s.getVip()).isNull();
            assertThat(s.getAddressPool()).isNull();
            assertThat(al.getMessage()).isEqualTo(((allocation instanceof AllocationState.Pending p) ? p.message()
                    : ((AllocationState.Failed) allocation).message()));
        }
        // feeding the result back with a later clock changes nothing: the controller writes only differences
        ServiceLoadBalancerStatus again = StatusCalculator.next(s, new StatusInput(7, allocation, b, type, arpNode), T1);
        assertThat(again).isEqualTo(s);
    }

    @Test
    void arpAnnouncingNodeOnlyForArpNetworksWithAVip() {
        assertThat(StatusCalculator.next(null, new StatusInput(1, VIP, backends("n1"), "arp", "n1"), T0)
                .getArpAnnouncingNode()).isEqualTo("n1");
        assertThat(StatusCalculator.next(null, new StatusInput(1, VIP, backends("n1"), "bgp", "n1"), T0)
                .getArpAnnouncingNode()).isNull();
        assertThat(StatusCalculator.next(null, new StatusInput(1, EXHAUSTED, backends("n1"), "arp", "n1"), T0)
                .getArpAnnouncingNode()).isNull();
    }

    @Test
    void lastTransitionTimeChangesOnlyWithTheConditionStatus() {
        ServiceLoadBalancerStatus pending = StatusCalculator.next(null,
                new StatusInput(1, EXHAUSTED, backends(), "bgp", null), T0);
        // same status False, other reason: time kept
        ServiceLoadBalancerStatus stillPending = StatusCalculator.next(pending,
                new StatusInput(1, IN_USE, backends(), "bgp", null), T1);
        assertThat(condition(stillPending, "Allocated").getLastTransitionTime()).isEqualTo(T0);
        assertThat(condition(stillPending, "Allocated").getReason()).isEqualTo("RequestedIPInUse");
        // Allocated flips to True; Available stays False (NotAllocated -> NoReadyBackends)
        ServiceLoadBalancerStatus allocated = StatusCalculator.next(stillPending,
                new StatusInput(2, VIP, backends(), "bgp", null), T1);
        assertThat(condition(allocated, "Allocated").getLastTransitionTime()).isEqualTo(T1);
        assertThat(condition(allocated, "Available").getLastTransitionTime()).isEqualTo(T0);
        // Available flips to True
        ServiceLoadBalancerStatus ready = StatusCalculator.next(allocated,
                new StatusInput(2, VIP, backends("n1"), "bgp", null), T2);
        assertThat(condition(ready, "Allocated").getLastTransitionTime()).isEqualTo(T1);
        assertThat(condition(ready, "Available").getLastTransitionTime()).isEqualTo(T2);
        assertThat(ready.getPhase()).isEqualTo("Ready");
    }

    @Test
    void previousConditionWithoutTimeGetsNow() {
        ServiceLoadBalancerStatus prev = new ServiceLoadBalancerStatus();
        Condition c = new Condition();
        c.setType("Allocated");
        c.setStatus("True");
        prev.setConditions(List.of(c));
        ServiceLoadBalancerStatus s = StatusCalculator.next(prev, new StatusInput(1, VIP, backends(), "bgp", null), T1);
        assertThat(condition(s, "Allocated").getLastTransitionTime()).isEqualTo(T1);
    }

    @Test
    void equalInputsGiveEqualStatuses() {
        StatusInput in = new StatusInput(3, VIP, backends("n1", "n2"), "arp", "n2");
        ServiceLoadBalancerStatus prev = previous("Allocated");
        assertThat(StatusCalculator.next(prev, in, T0)).isEqualTo(StatusCalculator.next(prev, in, T0))
                .isNotSameAs(StatusCalculator.next(prev, in, T0));
        assertThat(StatusCalculator.next(prev, in, T0).hashCode())
                .isEqualTo(StatusCalculator.next(previous("Allocated"), in, T0).hashCode());
    }

    @Test
    void readyMessagesNameWhoAnnounces() {
        assertThat(condition(StatusCalculator.next(null, new StatusInput(1, VIP, backends("n1", "n2"), "bgp", null),
                T0), "Available").getMessage())
                .isEqualTo("2 node(s) with a local ready backend may advertise VIP 10.0.0.1: n1, n2");
        assertThat(condition(StatusCalculator.next(null, new StatusInput(1, VIP, backends("n1", "n2"), "arp", "n2"),
                T0), "Available").getMessage())
                .isEqualTo("node n2 is elected to answer ARP for VIP 10.0.0.1; 2 node(s) with a local ready backend may: n1, n2");
        assertThat(condition(StatusCalculator.next(null, new StatusInput(1, EXHAUSTED, backends(), "bgp", null),
                T0), "Available").getMessage()).isEqualTo("no VIP allocated: no free address ...");
    }
}
