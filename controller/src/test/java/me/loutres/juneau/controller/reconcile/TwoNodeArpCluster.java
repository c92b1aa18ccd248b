package me.loutres.juneau.controller.reconcile;

import me.loutres.juneau.controller.testing.MockCluster;

/** What the writer's and the applier's MockTests write into: nodes a and b, one ARP pool of nine addresses, its network. */
final class TwoNodeArpCluster {
    private TwoNodeArpCluster() {
    }

    static MockCluster create() {
        MockCluster cluster = new MockCluster();
        cluster.ensureNode("node-a");
        cluster.ensureNode("node-b");
        cluster.pool("pool-a", "arp", "198.18.0.1-198.18.0.9");
        cluster.network("net", "arp", "pool-a");
        return cluster;
    }
}
