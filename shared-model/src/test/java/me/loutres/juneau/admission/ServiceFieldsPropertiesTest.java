package me.loutres.juneau.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import me.loutres.juneau.view.KubeReader;
import me.loutres.juneau.view.PlainShape;
import me.loutres.juneau.view.UnreadableObjectException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The Service review reads a Service's fields from its tree when {@link PlainShape} vouches for it, and binds the whole
 * Service otherwise. Over generated Services (unknown fields, missing fields, managedFields, then damaged: values of
 * other types, nulls, removed parts) both ways must agree on every field the rules use, and a Service the binding
 * refuses must be refused with the binding's own message.
 */
class ServiceFieldsPropertiesTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Property(tries = 2000)
    void theTreeAndTheBindingAgreeOnEveryFieldTheRulesUse(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 3) int damages) {
        Random random = new Random(seed);
        ObjectNode service = service(random);
        for (int i = 0; i < damages; i++) {
            damage(service, random);
        }
        boolean plain = PlainShape.readsPlainly(service, Service.class);
        Statistics.label("reads plainly").collect(plain);
        Service bound;
        try {
            bound = KubeReader.read(service, Service.class, "Service");
        } catch (UnreadableObjectException refused) {
            assertThat(plain).as("vouched for a Service the binding refuses: %s", service).isFalse();
            assertThatThrownBy(() -> ServiceFields.read(service)).isInstanceOf(UnreadableObjectException.class)
                    .hasMessage(refused.getMessage());
            return;
        }
        assertThat(ServiceFields.read(service)).as("%s", service).isEqualTo(ServiceFields.of(bound));
    }

    @Property(tries = 500)
    void anUndamagedServiceIsReadFromItsTree(@ForAll long seed) {
        ObjectNode service = service(new Random(seed));
        assertThat(PlainShape.readsPlainly(service, Service.class)).as("%s", service).isTrue();
    }

    /** A Service as the API server sends it, with a random choice of fields present, and fields no rule knows. */
    static ObjectNode service(Random r) {
        ObjectNode s = F.objectNode().put("apiVersion", "v1").put("kind", "Service");
        ObjectNode metadata = s.putObject("metadata").put("name", "web-" + r.nextInt(100));
        if (r.nextBoolean()) {
            metadata.put("namespace", "shop");
        }
        if (r.nextBoolean()) {
            metadata.putObject("labels").put("app", "web").put("tier", "front");
        }
        if (r.nextInt(4) > 0) {
            ObjectNode a = metadata.putObject("annotations");
            String[] values = {"public", " public ", "192.0.2.10", " 192.0.2.10", "", "  "};
            if (r.nextBoolean()) {
                a.put("juneau.loutres.me/load-balancer-external-network", values[r.nextInt(values.length)]);
            }
            if (r.nextBoolean()) {
                a.put("juneau.loutres.me/load-balancer-requested-ip", values[r.nextInt(values.length)]);
            }
            if (r.nextBoolean()) {
                a.put("juneau.loutres.me/something-else", "x");
            }
            if (r.nextBoolean()) {
                a.put("kubectl.kubernetes.io/last-applied-configuration", "{\"kind\":\"Service\"}");
            }
        }
        if (r.nextBoolean()) {
            metadata.putArray("finalizers").add("example.com/keep");
        }
        if (r.nextBoolean()) {
            metadata.put("generation", r.nextInt(5)).put("creationTimestamp", "2026-12-02T10:00:00Z");
        }
        if (r.nextBoolean()) {
            // the API server's record; the reader drops it, so even nonsense here changes nothing
            metadata.putArray("managedFields").addObject().put("manager", "kubectl").putObject("fieldsV1")
                    .putObject("f:spec").putObject("f:type");
        }
        if (r.nextInt(8) > 0) {
            ObjectNode spec = s.putObject("spec");
            String[] types = {"LoadBalancer", "LoadBalancer", "ClusterIP", "NodePort"};
            if (r.nextInt(6) > 0) {
                spec.put("type", types[r.nextInt(types.length)]);
            }
            if (r.nextInt(4) > 0) {
                spec.put("loadBalancerClass", r.nextInt(5) > 0 ? "juneau.loutres.me/load-balancer" : "other.example/lb");
            }
            if (r.nextInt(3) > 0) {
                spec.put("externalTrafficPolicy", r.nextInt(4) > 0 ? "Local" : "Cluster");
            }
            if (r.nextInt(4) == 0) {
                spec.put("loadBalancerIP", r.nextBoolean() ? "192.0.2.7" : " ");
            }
            if (r.nextInt(4) > 0) {
                ArrayNode ports = spec.putArray("ports");
                for (int i = r.nextInt(3); i >= 0; i--) {
                    ObjectNode p = ports.addObject().put("port", 80 + i);
                    if (r.nextBoolean()) {
                        p.put("name", "p" + i);
                    }
                    if (r.nextInt(3) > 0) {
                        p.put("protocol", r.nextInt(5) > 0 ? "TCP" : "SCTP");
                    }
                    if (r.nextBoolean()) {
                        if (r.nextBoolean()) {
                            p.put("targetPort", 8080 + i);
                        } else {
                            p.put("targetPort", "http");
                        }
                    }
                    if (r.nextBoolean()) {
                        p.put("nodePort", 30080 + i);
                    }
                    if (r.nextInt(5) == 0) {
                        p.put("appProtocol", "http");
                    }
                }
            }
            if (r.nextBoolean()) {
                ArrayNode families = spec.putArray("ipFamilies");
                families.add(r.nextInt(4) > 0 ? "IPv4" : "IPv6");
                if (r.nextBoolean()) {
                    families.add("IPv6");
                }
            }
            if (r.nextBoolean()) {
                spec.putObject("selector").put("app", "web");
                spec.put("sessionAffinity", "None").put("allocateLoadBalancerNodePorts", true)
                        .put("healthCheckNodePort", 32456);
                spec.putArray("clusterIPs").add("10.96.0.10");
                spec.putObject("sessionAffinityConfig").putObject("clientIP").put("timeoutSeconds", 10800);
            }
            if (r.nextInt(5) == 0) {
                spec.putObject("aFieldOfTomorrow").put("enabled", true).putArray("list").add(1).add("two");
            }
        }
        if (r.nextBoolean()) {
            s.putObject("status").putObject("loadBalancer").putArray("ingress").addObject().put("ip", "192.0.2.10");
        }
        if (r.nextInt(5) == 0) {
            s.put("unknownTopLevel", "kept");
        }
        return s;
    }

    /** One damage anywhere: a value of another type, a null, a removed field, a null list entry. */
    static void damage(ObjectNode root, Random r) {
        List<ObjectNode> parents = new ArrayList<>();
        List<ArrayNode> lists = new ArrayList<>();
        collect(root, parents, lists);
        if (!lists.isEmpty() && r.nextInt(8) == 0) {
            ArrayNode list = lists.get(r.nextInt(lists.size()));
            if (!list.isEmpty()) {
                list.set(r.nextInt(list.size()), F.nullNode());
            }
            return;
        }
        ObjectNode parent = parents.get(r.nextInt(parents.size()));
        List<String> names = new ArrayList<>();
        parent.fieldNames().forEachRemaining(names::add);
        if (names.isEmpty()) {
            return;
        }
        String name = names.get(r.nextInt(names.size()));
        JsonNode[] others = {F.numberNode(80), F.numberNode(1L << 40), F.numberNode(2.5), F.textNode("80"),
            F.textNode("text"), F.booleanNode(true), F.arrayNode().add("x"), F.objectNode().put("a", "b"), F.nullNode(),
            F.textNode("")};
        if (r.nextInt(6) == 0) {
            parent.remove(name);
        } else {
            parent.set(name, others[r.nextInt(others.length)]);
        }
    }

    private static void collect(JsonNode node, List<ObjectNode> parents, List<ArrayNode> lists) {
        if (node instanceof ObjectNode o) {
            parents.add(o);
            o.forEach(v -> collect(v, parents, lists));
        } else if (node instanceof ArrayNode a) {
            lists.add(a);
            a.forEach(v -> collect(v, parents, lists));
        }
    }
}
