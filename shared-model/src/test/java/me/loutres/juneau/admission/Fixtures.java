package me.loutres.juneau.admission;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.view.YamlDocuments;

/** The cluster the rule table reviews against. */
final class Fixtures {
    static final String SLB_DELETING_META = "  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n";

    private Fixtures() {
    }

    static SnapshotClusterView cluster() {
        return view(
                Manifests.pool("pool-a", "bgp", "192.0.2.0/24"),
                Manifests.pool("pool-b", "bgp", "198.51.100.0/28", "198.51.100.64/31"),
                Manifests.pool("pool-l2", "arp", "203.0.113.10-203.0.113.20"),
                Manifests.pool("pool-l2b", "arp", "203.0.113.100 - 203.0.113.110"),
                Manifests.pool("pool-free", "bgp", "100.64.0.0/24"),
                Manifests.pool("pool-free-arp", "arp", "100.64.1.1-100.64.1.9"),
                Manifests.network("public", "bgp", "pool-a", "pool-b"),
                Manifests.network("l2", "arp", "pool-l2"),
                Manifests.network("broken", "bgp", "pool-missing", "pool-l2b"),
                Manifests.node("node-a", "10.0.0.11"),
                Manifests.node("node-b", "10.0.0.12"),
                Manifests.node("node-c", "203.0.113.20"),
                Manifests.slb("default", "web", "public", "192.0.2.1", ""),
                Manifests.slb("team-b", "api", "public", "192.0.2.2", ""),
                Manifests.slb("default", "leaving", "public", "192.0.2.3", SLB_DELETING_META),
                Manifests.slb("default", "l2web", "l2", "203.0.113.10", ""),
                Manifests.arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", ""));
    }

    static SnapshotClusterView view(String... yamls) {
        List<HasMetadata> objects = new ArrayList<>();
        try {
            for (String y : yamls) {
                for (YamlDocuments.Document d : YamlDocuments.parse(Path.of("fixture.yaml"), y)) {
                    objects.addAll(ClusterStateFiles.objectsOf(d));
                }
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        return new SnapshotClusterView(objects);
    }
}
