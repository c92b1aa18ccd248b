package me.loutres.juneau.webhook.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import me.loutres.juneau.allocation.AllocatorFeed;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.view.KubeReader;
import me.loutres.juneau.view.UnreadableObjectException;
import me.loutres.juneau.webhook.Reviews;
import org.junit.jupiter.api.Test;

/**
 * Damaged objects as the controller reads them from the API server (issue 12 item 4): each is decoded the way an
 * informer decodes a watch event (the client's serialization), then read with the shared reader ({@link KubeReader})
 * and fed, with the rest of a small cluster, into the allocator's restore ({@link AllocatorFeed}), the path a new
 * leader takes. Bad content must come out as problems in words, never as an exception or exception text.
 * 2,000 cases here, 100,000 in the benchmark profile ({@code -Dfuzz.objects.cases}).
 */
class ObjectReadFuzzTest {
    static final long FIRST_SEED = Long.getLong("fuzz.objects.seed", 5_000_000L);
    static final int CASES = Integer.getInteger("fuzz.objects.cases", 2_000);
    private static final KubernetesSerialization CLIENT = new KubernetesSerialization();
    private static final Map<String, Class<? extends HasMetadata>> TYPES = Map.of("AddressPool", AddressPool.class,
            "ExternalNetwork", ExternalNetwork.class, "ServiceLoadBalancer", ServiceLoadBalancer.class,
            "ARPAdvertisement", ARPAdvertisement.class, "Node", Node.class);

    private static final JsonNode CLUSTER = Seeds.parse("""
            {"items":[
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-bgp"},
              "spec":{"advertiseMode":"bgp","addresses":["203.0.113.0/28"]},"status":{"total":16,"allocated":1,"free":15}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"AddressPool","metadata":{"name":"pool-arp"},
              "spec":{"advertiseMode":"arp","addresses":["198.51.100.10-198.51.100.20"]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ExternalNetwork","metadata":{"name":"public"},
              "spec":{"type":"bgp","addressPools":["pool-bgp"]}},
             {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a","labels":{"kubernetes.io/hostname":"node-a"}},
              "status":{"addresses":[{"type":"InternalIP","address":"198.51.100.15"},{"type":"Hostname","address":"node-a"}]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ServiceLoadBalancer",
              "metadata":{"name":"web","namespace":"shop","creationTimestamp":"2026-11-29T10:15:30Z",
                "finalizers":["serviceloadbalancer.juneau.loutres.me/allocation-claim"]},
              "spec":{"serviceRef":{"name":"web"},"externalNetwork":"public"},
              "status":{"phase":"Ready","vip":"203.0.113.5","addressPool":"pool-bgp",
                "conditions":[{"type":"Allocated","status":"True","reason":"Allocated","lastTransitionTime":"2026-11-29T10:15:31Z"}]}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ServiceLoadBalancer",
              "metadata":{"name":"printer","namespace":"office"},
              "spec":{"serviceRef":{"name":"printer"},"externalNetwork":"lan"},
              "status":{"phase":"Ready","vip":"198.51.100.12","addressPool":"pool-arp"}},
             {"apiVersion":"juneau.loutres.me/v1alpha1","kind":"ARPAdvertisement","metadata":{"name":"slb-office-printer"},
              "spec":{"externalNetwork":"lan","address":"198.51.100.12","nodeName":"node-a"}}]}""");

    static FuzzCase generate(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        JsonNode cluster = CLUSTER.deepCopy();
        ArrayNode items = (ArrayNode) cluster.get("items");
        Map<String, String> raws = new LinkedHashMap<>();
        List<String> damage = new ArrayList<>();
        int operations = 1 + r.nextInt(3);
        for (int i = 0; i < operations; i++) {
            int which = r.nextInt(items.size());
            JsonNode item = items.get(which);
            if (item.isContainerNode()) {
                TreeDamage.damage(r, item, "[" + which + "]", raws, damage, List.of(CLUSTER));
            }
        }
        return new FuzzCase(seed, "cluster objects", "READ", "restore", "application/json", damage, cluster, raws,
                ByteDamage.NONE);
    }

    /** Decodes, reads and restores; what the controller would report is the answer's text. */
    static FuzzOracle.Answer restore(FuzzCase c) {
        List<String> said = new ArrayList<>();
        List<AddressPool> pools = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        List<ServiceLoadBalancer> slbs = new ArrayList<>();
        int undecodable = 0;
        JsonNode items = c.tree() == null ? null : c.tree().get("items");
        for (JsonNode damaged : items == null || !items.isArray() ? List.<JsonNode>of() : List.copyOf(
                java.util.stream.StreamSupport.stream(items.spliterator(), false).toList())) {
            // each object is its own watch event: one the client cannot decode is dropped, the others arrive
            String json = new String(FuzzCase.render(damaged, c.raws()), StandardCharsets.UTF_8);
            JsonNode item;
            try {
                item = Reviews.JSON.readTree(json);
            } catch (java.io.IOException e) {
                undecodable++;
                continue;
            }
            String kind = item.path("kind").asText("");
            Class<? extends HasMetadata> type = TYPES.get(kind);
            if (type == null) {
                continue; // an informer of one kind never delivers another
            }
            try {
                KubeReader.read(item, type, kind);
            } catch (UnreadableObjectException e) {
                said.add(e.getMessage());
            }
            HasMetadata decoded;
            try {
                decoded = CLIENT.unmarshal(json, type);
            } catch (RuntimeException e) {
                undecodable++; // the informer drops an event it cannot decode; the controller never sees it
                continue;
            }
            KubeReader.check(decoded).ifPresent(said::add);
            if (decoded instanceof AddressPool p) {
                pools.add(p);
            } else if (decoded instanceof Node n) {
                nodes.add(n);
            } else if (decoded instanceof ServiceLoadBalancer s) {
                slbs.add(s);
            }
        }
        said.addAll(AllocatorFeed.records(slbs, pools).problems());
        for (AddressPool p : pools) {
            said.addAll(AllocatorFeed.pool(p).problems());
        }
        AllocatorFeed.allocator(pools, nodes, slbs);
        return new FuzzOracle.Answer(200, "undecodable " + undecodable,
                String.join("\n", said).getBytes(StandardCharsets.UTF_8));
    }

    static Optional<String> problem(FuzzCase c, FuzzOracle.Answer answer) {
        return FuzzOracle.leak(answer.text());
    }

    @Test
    void damagedObjectsAreReadAndRestoredWithoutExceptions() throws Exception {
        FuzzRunner.Report report = new FuzzRunner(ObjectReadFuzzTest::restore, ObjectReadFuzzTest::problem,
                ObjectReadFuzzTest::generate, Duration.ofSeconds(30), 2).run(FIRST_SEED, CASES);
        System.out.println("object read fuzz: " + report.summary());
        assertThat(report.failures().stream().map(FuzzRunner.Failure::toString).collect(Collectors.joining("\n\n")))
                .as("%d of %d cases failed; the first ones, minimised", report.failed(), report.cases())
                .isEmpty();
        assertThat(report.outcomes()).doesNotContainKeys("hung", "thrown");
    }

    @Test
    void theUndamagedClusterIsReadWithoutAProblem() throws Exception {
        FuzzCase clean = new FuzzCase(0, "clean", "READ", "restore", "application/json", List.of(), CLUSTER, Map.of(),
                ByteDamage.NONE);
        assertThat(restore(clean).text()).isEmpty();
        assertThat(Reviews.JSON.readTree(clean.body()).get("items")).hasSize(7);
    }
}
