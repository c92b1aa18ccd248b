package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * What kube-apiserver's per-kind strategies do before storing: defaulting (k8s.io/kubernetes/pkg/apis/core/v1
 * defaults.go: a Service gets type ClusterIP, a cluster IP, protocol TCP, targetPort = port, node ports and
 * externalTrafficPolicy Cluster when it is a LoadBalancer, a Secret type Opaque) and validation (pkg/apis/core/validation: names,
 * ports, immutable fields), with the field paths and wording of its field errors.
 */
final class Strategies {
    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private final AtomicInteger nextClusterIp = new AtomicInteger(10);
    private final AtomicInteger nextNodePort = new AtomicInteger(30000);

    /** Defaults of a new or updated object; {@code old} keeps allocated values (cluster IP, node ports). */
    void defaults(ResourceType type, ObjectNode object, ObjectNode old) {
        switch (type.groupResource()) {
            case "services" -> defaultService(object, old);
            case "namespaces" -> {
                ObjectNode meta = (ObjectNode) object.get("metadata");
                Json.obj(meta, "labels").put("kubernetes.io/metadata.name", meta.path("name").asText());
                if (!object.path("spec").has("finalizers")) {
                    Json.obj(object, "spec").putArray("finalizers").add("kubernetes");
                }
                if (!object.path("status").has("phase")) {
                    Json.obj(object, "status").put("phase", "Active");
                }
            }
            // SetDefaults_Secret: a Secret without a type (kubectl create secret generic sends none) is Opaque
            case "secrets" -> {
                if (!object.hasNonNull("type") || object.path("type").asText().isEmpty()) {
                    object.put("type", "Opaque");
                }
            }
            case "endpointslices.discovery.k8s.io" -> {
                for (JsonNode p : object.path("ports")) {
                    if (p.isObject() && !p.hasNonNull("protocol")) {
                        ((ObjectNode) p).put("protocol", "TCP");
                    }
                }
            }
            default -> {
            }
        }
    }

    private void defaultService(ObjectNode svc, ObjectNode old) {
        ObjectNode spec = Json.obj(svc, "spec");
        JsonNode oldSpec = old == null ? null : old.path("spec");
        if (!spec.hasNonNull("type")) {
            spec.put("type", "ClusterIP");
        }
        String type = spec.path("type").asText();
        if (!spec.hasNonNull("sessionAffinity")) {
            spec.put("sessionAffinity", "None");
        }
        defaultPorts(spec, type, oldSpec);
        if (type.equals("ExternalName")) {
            return;
        }
        defaultClusterIp(spec, oldSpec);
        if (!spec.has("clusterIPs") || spec.path("clusterIPs").isEmpty()) {
            spec.putArray("clusterIPs").add(spec.path("clusterIP").asText());
        }
        if (!spec.has("ipFamilies") || spec.path("ipFamilies").isEmpty()) {
            spec.putArray("ipFamilies").add("IPv4");
        }
        if (!spec.hasNonNull("ipFamilyPolicy")) {
            spec.put("ipFamilyPolicy", "SingleStack");
        }
        if (!spec.hasNonNull("internalTrafficPolicy")) {
            spec.put("internalTrafficPolicy", "Cluster");
        }
        if ((type.equals("LoadBalancer") || type.equals("NodePort")) && !spec.hasNonNull("externalTrafficPolicy")) {
            spec.put("externalTrafficPolicy", "Cluster");
        }
        if (type.equals("LoadBalancer") && !spec.hasNonNull("allocateLoadBalancerNodePorts")) {
            spec.put("allocateLoadBalancerNodePorts", true);
        }
        if (!svc.has("status")) {
            svc.putObject("status").putObject("loadBalancer");
        }
    }

    /** Protocol TCP, targetPort = port, and a node port (kept from the old object) where the type needs one. */
    private void defaultPorts(ObjectNode spec, String type, JsonNode oldSpec) {
        boolean nodePorts = type.equals("NodePort") || (type.equals("LoadBalancer")
                && spec.path("allocateLoadBalancerNodePorts").asBoolean(true));
        for (JsonNode p : spec.path("ports")) {
            if (!(p instanceof ObjectNode port)) {
                continue;
            }
            if (!port.hasNonNull("protocol")) {
                port.put("protocol", "TCP");
            }
            if (!port.hasNonNull("targetPort") && port.has("port")) {
                port.set("targetPort", port.get("port"));
            }
            if (nodePorts && !port.hasNonNull("nodePort")) {
                JsonNode previous = oldSpec == null ? null : findPort(oldSpec.path("ports"), port);
                port.put("nodePort", previous != null && previous.hasNonNull("nodePort")
                        ? previous.path("nodePort").asInt() : 30000 + Math.floorMod(nextNodePort.getAndIncrement()
                                - 30000, 2768));
            }
        }
    }

    /** An update keeps the old cluster IP; a create gets the next one of 10.96.0.0/16. */
    private void defaultClusterIp(ObjectNode spec, JsonNode oldSpec) {
        if (!spec.hasNonNull("clusterIP") || spec.path("clusterIP").asText().isEmpty()) {
            if (oldSpec != null && oldSpec.hasNonNull("clusterIP")) {
                spec.set("clusterIP", oldSpec.get("clusterIP"));
                spec.set("clusterIPs", oldSpec.path("clusterIPs").deepCopy());
            } else {
                int n = nextClusterIp.getAndIncrement();
                spec.put("clusterIP", "10.96." + ((n >> 8) & 0xff) + "." + (n & 0xff));
            }
        }
    }

    private static JsonNode findPort(JsonNode ports, JsonNode port) {
        for (JsonNode p : ports) {
            if (MergeKeys.sameItem(p, port, List.of("port", "protocol"))) {
                return p;
            }
        }
        return null;
    }

    /** kube's field errors for this object (empty: valid). */
    List<ApiException.Cause> validate(ResourceType type, ObjectNode object, ObjectNode old) {
        List<ApiException.Cause> errors = new ArrayList<>();
        JsonNode meta = object.path("metadata");
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            errors.add(new ApiException.Cause("metadata.name", "FieldValueRequired",
                    "Required value: name or generateName is required"));
        } else if (old == null) {
            checkName(type, name, errors);
        }
        if (type.groupResource().equals("services")) {
            validateService(object, old, errors);
        }
        if (type.groupResource().equals("endpointslices.discovery.k8s.io")) {
            String at = object.path("addressType").asText("");
            if (at.isEmpty()) {
                errors.add(new ApiException.Cause("addressType", "FieldValueRequired", "Required value"));
            } else if (!Set.of("IPv4", "IPv6", "FQDN").contains(at)) {
                errors.add(new ApiException.Cause("addressType", "FieldValueNotSupported", "Unsupported value: \""
                        + at + "\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""));
            } else if (old != null && !at.equals(old.path("addressType").asText())) {
                errors.add(new ApiException.Cause("addressType", "FieldValueInvalid", "Invalid value: \"" + at
                        + "\": field is immutable"));
            }
        }
        return errors;
    }

    private static void checkName(ResourceType type, String name, List<ApiException.Cause> errors) {
        String g = type.groupResource();
        if (g.equals("services")) {
            if (!DNS1035_LABEL.matcher(name).matches() || name.length() > 63) {
                errors.add(new ApiException.Cause("metadata.name", "FieldValueInvalid", "Invalid value: \"" + name
                        + "\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with"
                        + " an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or"
                        + " 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
            }
        } else if (g.equals("namespaces")) {
            if (!DNS1123_LABEL.matcher(name).matches() || name.length() > 63) {
                errors.add(new ApiException.Cause("metadata.name", "FieldValueInvalid", "Invalid value: \"" + name
                        + "\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
                        + " and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc',"
                        + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
            }
        } else if (!g.equals("events") && (!DNS1123_SUBDOMAIN.matcher(name).matches() || name.length() > 253)
                && !g.startsWith("clusterroles") && !g.startsWith("roles") && !g.startsWith("clusterrolebindings")
                && !g.startsWith("rolebindings")) {
            errors.add(new ApiException.Cause("metadata.name", "FieldValueInvalid", "Invalid value: \"" + name
                    + "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
                    + " '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used"
                    + " for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
        }
    }

    private static void validateService(ObjectNode svc, ObjectNode old, List<ApiException.Cause> errors) {
        JsonNode spec = svc.path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (!Set.of("ClusterIP", "NodePort", "LoadBalancer", "ExternalName").contains(type)) {
            errors.add(new ApiException.Cause("spec.type", "FieldValueNotSupported", "Unsupported value: \"" + type
                    + "\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\""));
        }
        ArrayNode ports = spec.path("ports").isArray() ? (ArrayNode) spec.path("ports") : null;
        boolean headless = "None".equals(spec.path("clusterIP").asText());
        if ((ports == null || ports.isEmpty()) && !headless && !type.equals("ExternalName")) {
            errors.add(new ApiException.Cause("spec.ports", "FieldValueRequired", "Required value"));
        }
        validatePorts(ports, errors);
        String etp = spec.path("externalTrafficPolicy").asText("");
        if (!etp.isEmpty() && !Set.of("Cluster", "Local").contains(etp)) {
            errors.add(new ApiException.Cause("spec.externalTrafficPolicy", "FieldValueNotSupported",
                    "Unsupported value: \"" + etp + "\": supported values: \"Cluster\", \"Local\""));
        }
        if (spec.hasNonNull("loadBalancerClass") && !type.equals("LoadBalancer")) {
            errors.add(new ApiException.Cause("spec.loadBalancerClass", "FieldValueForbidden",
                    "Forbidden: may only be used when `type` is 'LoadBalancer'"));
        }
        if (old != null) {
            validateServiceUpdate(spec, type, old.path("spec"), errors);
        }
    }

    /** Each port in range, with a known protocol, named when there are several, no name or port/protocol twice. */
    private static void validatePorts(ArrayNode ports, List<ApiException.Cause> errors) {
        Set<String> seen = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; ports != null && i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            String at = "spec.ports[" + i + "]";
            int port = p.path("port").asInt(0);
            if (port < 1 || port > 65535) {
                errors.add(new ApiException.Cause(at + ".port", "FieldValueInvalid", "Invalid value: " + port
                        + ": must be between 1 and 65535, inclusive"));
            }
            String protocol = p.path("protocol").asText("TCP");
            if (!Set.of("TCP", "UDP", "SCTP").contains(protocol)) {
                errors.add(new ApiException.Cause(at + ".protocol", "FieldValueNotSupported", "Unsupported value: \""
                        + protocol + "\": supported values: \"SCTP\", \"TCP\", \"UDP\""));
            }
            if (ports.size() > 1 && p.path("name").asText("").isEmpty()) {
                errors.add(new ApiException.Cause(at + ".name", "FieldValueRequired", "Required value"));
            }
            if (!p.path("name").asText("").isEmpty() && !names.add(p.path("name").asText())) {
                errors.add(new ApiException.Cause(at + ".name", "FieldValueDuplicate", "Duplicate value: \""
                        + p.path("name").asText() + "\""));
            }
            if (!seen.add(port + "/" + protocol)) {
                errors.add(new ApiException.Cause(at, "FieldValueDuplicate", "Duplicate value: core.ServicePort{Port:"
                        + port + ", Protocol:\"" + protocol + "\"}"));
            }
        }
    }

    /** What may not change once set: the cluster IP (unless ExternalName) and a LoadBalancer's class. */
    private static void validateServiceUpdate(JsonNode spec, String type, JsonNode oldSpec,
            List<ApiException.Cause> errors) {
        String oldIp = oldSpec.path("clusterIP").asText("");
        if (!oldIp.isEmpty() && !oldIp.equals(spec.path("clusterIP").asText("")) && !type.equals("ExternalName")
                && !"ExternalName".equals(oldSpec.path("type").asText())) {
            errors.add(new ApiException.Cause("spec.clusterIPs[0]", "FieldValueInvalid", "Invalid value: []string{\""
                    + spec.path("clusterIP").asText("") + "\"}: may not change once set"));
        }
        String oldClass = oldSpec.path("loadBalancerClass").asText(null);
        String newClass = spec.path("loadBalancerClass").asText(null);
        if ("LoadBalancer".equals(oldSpec.path("type").asText()) && type.equals("LoadBalancer")
                && !java.util.Objects.equals(oldClass, newClass)) {
            errors.add(new ApiException.Cause("spec.loadBalancerClass", "FieldValueInvalid", "Invalid value: "
                    + (newClass == null ? "\"null\"" : "\"" + newClass + "\"") + ": may not change once set"));
        }
    }
}
