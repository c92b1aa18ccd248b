package me.loutres.juneau.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** When liveness fails (the kubelet restarts the agent), from the facts; stuck after 60 s, Lease idle every 10 s. */
class AgentHealthTest {
    static final long NOW = 1_000_000;

    static AgentHealth facts(String arp, String runtime, boolean watchGone, long notWatchingSince, long renewed,
            long heartbeat, long leaseHeartbeat) {
        return new AgentHealth(arp, runtime, watchGone, NOW, notWatchingSince, renewed, heartbeat, leaseHeartbeat,
                Duration.ofSeconds(60), Duration.ofSeconds(10));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("all well", facts(null, null, false, 0, NOW - 500, NOW - 900, NOW - 900), null),
                Arguments.of("an API server outage alone is not stuck",
                        facts(null, null, false, NOW - 300_000, NOW - 300_000, NOW - 900, NOW - 900), null),
                Arguments.of("a receive thread broke", facts("ARP receive on eth0 stopped: EIO", null, false, 0,
                        NOW, NOW, NOW), "ARP receive on eth0 stopped: EIO"),
                Arguments.of("the runtime stopped", facts(null, "boom", false, 0, NOW, NOW, NOW),
                        "the reconcile runtime stopped: boom"),
                Arguments.of("the watch gave up", facts(null, null, true, 0, NOW, NOW, NOW),
                        "the ARPAdvertisement watch stopped for good"),
                Arguments.of("the watch is down while the Lease renews",
                        facts(null, null, false, NOW - 70_000, NOW - 1_000, NOW, NOW),
                        "the ARPAdvertisement watch has been down for 70 s although the API server answers the Lease"
                                + " renewals"),
                Arguments.of("an idle node's reconcile loop may sleep its idle rhythm on top",
                        facts(null, null, false, 0, NOW, NOW - 65_000, NOW), null),
                Arguments.of("the reconcile loop stands still", facts(null, null, false, 0, NOW, NOW - 71_000, NOW),
                        "the reconcile loop has not run for 71 s"),
                Arguments.of("the Lease loop may sleep its idle interval on top",
                        facts(null, null, false, 0, NOW, NOW, NOW - 65_000), null),
                Arguments.of("the Lease loop stands still", facts(null, null, false, 0, NOW, NOW, NOW - 71_000),
                        "the Lease loop has not run for 71 s"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judges(String name, AgentHealth facts, String expected) {
        assertThat(facts.problem()).isEqualTo(expected);
    }
}
