package me.loutres.juneau.controller.scenario;

import static me.loutres.juneau.controller.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import me.loutres.juneau.controller.testing.MockCluster;
import org.junit.jupiter.api.Test;

class FirstLightMockTest {
    @Test
    void arpServiceGetsVipAndAdvertisement() {
        try (MockCluster c = new MockCluster()) {
            c.node("node-a", "192.168.0.1");
            c.node("node-b", "192.168.0.2");
            c.pool("pool-a", "arp", "10.0.0.1-10.0.0.10");
            c.network("public", "arp", "pool-a");
            c.service("default", "web", "public");
            c.endpoints("default", "web", "node-a", "node-b");
            c.startController("ctl-1");
            eventually(() -> {
                var slb = c.slb("default", "web");
                assertThat(slb).isNotNull();
                assertThat(slb.getStatus()).isNotNull();
                assertThat(slb.getStatus().getPhase()).isEqualTo("Ready");
                assertThat(slb.getStatus().getVip()).isEqualTo("10.0.0.1");
            });
            eventually(() -> assertThat(c.arp("default", "web")).isNotNull());
            eventually(() -> assertThat(c.svc("default", "web").getStatus().getLoadBalancer().getIngress()).hasSize(1));
            eventually(() -> assertThat(c.getPool("pool-a").getStatus()).isNotNull());
            System.out.println(io.fabric8.kubernetes.client.utils.Serialization.asYaml(c.slb("default", "web")));
            System.out.println(io.fabric8.kubernetes.client.utils.Serialization.asYaml(c.arp("default", "web")));
            System.out.println(io.fabric8.kubernetes.client.utils.Serialization.asYaml(c.getPool("pool-a")));
            System.out.println(c.events("default", "web", null));
        }
    }
}
