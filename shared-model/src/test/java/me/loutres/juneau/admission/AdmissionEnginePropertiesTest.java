package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.arp;
import static me.loutres.juneau.admission.Manifests.network;
import static me.loutres.juneau.admission.Manifests.pool;
import static me.loutres.juneau.admission.Manifests.slb;
import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import me.loutres.juneau.view.ClusterView;
import me.loutres.juneau.view.KubeObjects;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Damaged objects (a field set to null, to a value of another type, removed, or a list entry nulled) through every
 * endpoint: the engine always answers, echoes the uid, and a denial is one line naming what it found — never an
 * exception text, and never the engine's last-resort "could not be reviewed" (that would be a rule tripping over
 * content it did not expect).
 */
class AdmissionEnginePropertiesTest {
    static final AdmissionEngine ENGINE = new AdmissionEngine(new AdmissionSettings(Set.of(Requests.CONTROLLER),
            List.of("10.96.0.0/12")));
    static final ClusterView VIEW = Fixtures.cluster();

    record Target(String path, String operation, String user, String kind, String plural, String yaml) {
    }

    static final List<Target> TARGETS = List.of(
            new Target("/mutate/services", "CREATE", Requests.USER, "Service", "services", svc("a").ip("192.0.2.10").yaml()),
            new Target("/validate/services", "CREATE", Requests.USER, "Service", "services", svc("a").ip("192.0.2.10").yaml()),
            new Target("/validate/services", "UPDATE", Requests.USER, "Service", "services", svc("web").yaml()),
            new Target("/validate/addresspools", "CREATE", Requests.USER, "AddressPool", "addresspools", pool("p", "bgp", "172.16.0.0/24")),
            new Target("/validate/addresspools", "UPDATE", Requests.USER, "AddressPool", "addresspools", pool("pool-a", "bgp", "192.0.2.0/24")),
            new Target("/validate/externalnetworks", "CREATE", Requests.USER, "ExternalNetwork", "externalnetworks", network("n", "bgp", "pool-free")),
            new Target("/validate/externalnetworks", "UPDATE", Requests.USER, "ExternalNetwork", "externalnetworks", network("public", "bgp", "pool-a", "pool-b")),
            new Target("/validate/serviceloadbalancers", "UPDATE", Requests.USER, "ServiceLoadBalancer", "serviceloadbalancers", slb("default", "web", "public", "192.0.2.1", "")),
            new Target("/validate/serviceloadbalancers", "CREATE", Requests.CONTROLLER, "ServiceLoadBalancer", "serviceloadbalancers", slb("default", "web", "public", "192.0.2.1", "")),
            new Target("/validate/arpadvertisements", "CREATE", Requests.CONTROLLER, "ARPAdvertisement", "arpadvertisements", arp("slb-default-new", "l2", "203.0.113.11", "node-b", "")),
            new Target("/validate/arpadvertisements", "UPDATE", Requests.CONTROLLER, "ARPAdvertisement", "arpadvertisements", arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", "")));

    @Property(tries = 1000)
    void damagedObjectsGetAnAnswerNeverAnExceptionText(@ForAll @IntRange(min = 0, max = 10) int target,
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 3) int damages, @ForAll boolean damageOld) {
        Target t = TARGETS.get(target);
        Random random = new Random(seed);
        JsonNode original = Requests.yaml(t.yaml());
        JsonNode damaged = original.deepCopy();
        for (int i = 0; i < damages; i++) {
            damaged = damage(damaged, random);
        }
        // the objects go in as generic maps, as the webhook servlet passes them on (it does not bind them to types)
        io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest request = (t.plural().equals("services")
                ? Requests.service(t.operation()) : Requests.custom(t.operation(), t.kind(), t.plural()))
                .user(t.user()).build();
        request.setObject(KubeObjects.mapper().convertValue(damaged, Object.class));
        if (t.operation().equals("UPDATE")) {
            request.setOldObject(KubeObjects.mapper().convertValue(damageOld ? damage(original.deepCopy(), random) : original,
                    Object.class));
        }
        AdmissionResponse response = ENGINE.review(t.path(), request, VIEW);
        Statistics.label("verdict").collect(response.getAllowed() ? "allowed" : "denied");
        assertThat(response).isNotNull();
        assertThat(response.getAllowed()).isNotNull();
        if (!response.getAllowed()) {
            String message = response.getStatus().getMessage();
            assertThat(message).as("denial for %s", damaged).isNotBlank()
                    .doesNotContain("Exception").doesNotContain("Cannot invoke").doesNotContain("\n")
                    .doesNotContain("could not be reviewed");
        }
    }

    /** One damage at a random place of the tree. */
    static JsonNode damage(JsonNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode c = containers.get(random.nextInt(containers.size()));
        JsonNodeFactory f = JsonNodeFactory.instance;
        JsonNode[] replacements = {f.nullNode(), f.numberNode(7), f.textNode(""), f.textNode("x"), f.booleanNode(true),
                f.arrayNode(), f.objectNode(), f.arrayNode().add(f.nullNode())};
        JsonNode value = replacements[random.nextInt(replacements.length)];
        if (c instanceof ObjectNode o && o.size() > 0) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            String name = names.get(random.nextInt(names.size()));
            if (name.equals("kind") || name.equals("apiVersion")) {
                return root; // another kind is a routing mismatch, tested elsewhere
            }
            if (random.nextInt(4) == 0) {
                o.remove(name);
            } else {
                o.set(name, value);
            }
        } else if (c instanceof ArrayNode a && a.size() > 0) {
            a.set(random.nextInt(a.size()), value);
        }
        return root;
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.forEach(child -> collect(child, out));
        }
    }
}
