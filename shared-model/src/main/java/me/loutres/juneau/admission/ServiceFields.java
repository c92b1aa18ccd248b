package me.loutres.juneau.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.PlainShape;

/**
 * The fields of a Service the Service rules read (docs/admission.md), and nothing else. The webhook reviews Services
 * more than any other kind, and binding the whole Service into fabric8's model was a large part of a review's own cost
 * (BENCHMARKS.md, "Webhook steady and cold"), so a Service whose tree reads plainly ({@link PlainShape}) is read from
 * the tree directly; any other goes through the shared reader as before, with its problems and messages unchanged.
 *
 * @param type                  spec.type, null when absent
 * @param loadBalancerClass     spec.loadBalancerClass, null when absent
 * @param externalTrafficPolicy spec.externalTrafficPolicy, null when absent
 * @param loadBalancerIP        spec.loadBalancerIP, null when absent
 * @param ourAnnotations        the {@code juneau.loutres.me/*} annotations as written (untrimmed), in their order
 * @param ports                 spec.ports as the rules compare them, empty when absent
 * @param ipFamilies            spec.ipFamilies, empty when absent
 * @param labels                metadata.labels, empty when absent (who may use a network, policy/NetworkAccess)
 * @param ipFamilyPolicy        spec.ipFamilyPolicy, null when absent
 * @param annotationKeys        every annotation's key, in their order ({@link ServiceAnnotationHints} warns of those
 *                              that look meant for Juneau but are not read)
 */
record ServiceFields(String type, String loadBalancerClass, String externalTrafficPolicy, String loadBalancerIP,
                     Map<String, String> ourAnnotations, List<Port> ports, List<String> ipFamilies,
                     Map<String, String> labels, String ipFamilyPolicy, List<String> annotationKeys) {
    private static final String OURS = JuneauConstants.GROUP + "/";

    /**
     * One port as the rules compare ports: without nodePort, which the API server may fill in differently on each
     * write; the target port as text, an integer or a name alike.
     */
    record Port(String name, String protocol, Integer port, String targetPort) {
    }

    /**
     * The Service's fields from its tree; an unreadable Service is the shared reader's {@code UnreadableObjectException}
     * with its message, exactly as when the whole Service is bound.
     */
    static ServiceFields read(JsonNode tree) {
        if (PlainShape.readsPlainly(tree, Service.class)) {
            return fromTree(tree);
        }
        return of(KubeObjects.read(tree, Service.class, "Service"));
    }

    /** The fields of a bound Service. */
    static ServiceFields of(Service service) {
        ServiceSpec spec = service.getSpec();
        Map<String, String> all = service.getMetadata() == null ? null : service.getMetadata().getAnnotations();
        Map<String, String> ours = new LinkedHashMap<>();
        if (all != null) {
            all.forEach((k, v) -> {
                if (k.startsWith(OURS)) {
                    ours.put(k, v);
                }
            });
        }
        List<Port> ports = new ArrayList<>();
        if (spec != null && spec.getPorts() != null) {
            for (ServicePort p : spec.getPorts()) {
                IntOrString target = p.getTargetPort();
                ports.add(new Port(p.getName(), p.getProtocol(), p.getPort(),
                        target == null ? null : String.valueOf(target.getValue())));
            }
        }
        return new ServiceFields(spec == null ? null : spec.getType(), spec == null ? null : spec.getLoadBalancerClass(),
                spec == null ? null : spec.getExternalTrafficPolicy(), spec == null ? null : spec.getLoadBalancerIP(),
                Collections.unmodifiableMap(ours), List.copyOf(ports),
                spec == null || spec.getIpFamilies() == null ? List.of() : List.copyOf(spec.getIpFamilies()),
                service.getMetadata() == null || service.getMetadata().getLabels() == null ? Map.of()
                        : Collections.unmodifiableMap(new LinkedHashMap<>(service.getMetadata().getLabels())),
                spec == null ? null : spec.getIpFamilyPolicy(),
                all == null ? List.of() : List.copyOf(all.keySet()));
    }

    /** The fields of a tree {@link PlainShape} vouched for: every value present has its natural type. */
    private static ServiceFields fromTree(JsonNode tree) {
        JsonNode spec = tree.path("spec");
        Map<String, String> ours = new LinkedHashMap<>();
        JsonNode annotations = tree.path("metadata").path("annotations");
        List<String> keys = new ArrayList<>();
        for (var it = annotations.fields(); it.hasNext(); ) {
            var e = it.next();
            keys.add(e.getKey());
            if (e.getKey().startsWith(OURS)) {
                ours.put(e.getKey(), e.getValue().textValue());
            }
        }
        List<Port> ports = new ArrayList<>();
        for (JsonNode p : spec.path("ports")) {
            JsonNode port = p.get("port");
            JsonNode target = p.get("targetPort");
            ports.add(new Port(text(p.get("name")), text(p.get("protocol")), port == null ? null : port.intValue(),
                    target == null ? null : target.isInt() ? String.valueOf(target.intValue()) : target.textValue()));
        }
        List<String> families = new ArrayList<>();
        for (JsonNode f : spec.path("ipFamilies")) {
            families.add(f.textValue());
        }
        Map<String, String> labels = new LinkedHashMap<>();
        for (var it = tree.path("metadata").path("labels").fields(); it.hasNext(); ) {
            var e = it.next();
            labels.put(e.getKey(), e.getValue().textValue());
        }
        return new ServiceFields(text(spec.get("type")), text(spec.get("loadBalancerClass")),
                text(spec.get("externalTrafficPolicy")), text(spec.get("loadBalancerIP")),
                Collections.unmodifiableMap(ours), List.copyOf(ports), List.copyOf(families),
                Collections.unmodifiableMap(labels), text(spec.get("ipFamilyPolicy")), List.copyOf(keys));
    }

    private static String text(JsonNode node) {
        return node == null ? null : node.textValue();
    }

    /** The trimmed annotation value, null when absent. */
    String annotation(String key) {
        return Texts.trimmed(ourAnnotations.get(key));
    }
}
