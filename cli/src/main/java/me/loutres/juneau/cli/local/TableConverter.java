package me.loutres.juneau.cli.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * Server-side printing ({@code meta.k8s.io/v1 Table}) for {@code kubectl get}: the columns a real cluster shows,
 * the CRDs' printer columns read from the same annotations the CRD generator uses, so the two cannot drift.
 */
final class TableConverter {
    record Column(String name, String type, String jsonPath) {
    }

    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, List<Column>> columns;

    TableConverter() {
        columns = Map.of(
                "services", List.of(col("Type", ".spec.type"), col("Cluster-IP", ".spec.clusterIP"),
                        col("External-IP", ".status.loadBalancer.ingress[*].ip"), col("Port(s)", "#ports"),
                        new Column("Age", "date", ".metadata.creationTimestamp")),
                "endpointslices", List.of(col("AddressType", ".addressType"), col("Endpoints", "#endpoints"),
                        new Column("Age", "date", ".metadata.creationTimestamp")),
                JuneauConstants.PLURAL_ADDRESS_POOLS, printerColumns(AddressPool.class),
                JuneauConstants.PLURAL_EXTERNAL_NETWORKS, printerColumns(ExternalNetwork.class),
                JuneauConstants.PLURAL_SERVICE_LOAD_BALANCERS, printerColumns(ServiceLoadBalancer.class),
                JuneauConstants.PLURAL_ARP_ADVERTISEMENTS, printerColumns(ARPAdvertisement.class));
    }

    private static Column col(String name, String path) {
        return new Column(name, "string", path);
    }

    private static List<Column> printerColumns(Class<?> type) {
        List<Column> list = new ArrayList<>();
        for (AdditionalPrinterColumn c : type.getAnnotationsByType(AdditionalPrinterColumn.class)) {
            list.add(new Column(c.name(), c.type().name().toLowerCase(java.util.Locale.ROOT), c.jsonPath()));
        }
        return list;
    }

    /** A Table for a list or a single object of the resource (plural). */
    JsonNode toTable(String resource, JsonNode body, Instant now) {
        List<Column> cols = columns.getOrDefault(resource,
                List.of(new Column("Age", "date", ".metadata.creationTimestamp")));
        ObjectNode table = json.createObjectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = table.putObject("metadata");
        if (body.path("metadata").has("resourceVersion")) {
            meta.put("resourceVersion", body.path("metadata").path("resourceVersion").asText());
        }
        ArrayNode defs = table.putArray("columnDefinitions");
        defs.addObject().put("name", "Name").put("type", "string").put("format", "name").put("description", "")
                .put("priority", 0);
        for (Column c : cols) {
            defs.addObject().put("name", c.name()).put("type", c.type().equals("date") ? "string" : c.type())
                    .put("format", "").put("description", "").put("priority", 0);
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> items = new ArrayList<>();
        if (body.has("items")) {
            body.path("items").forEach(items::add);
        } else {
            items.add(body);
        }
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(item.path("metadata").path("name").asText());
            for (Column c : cols) {
                cells.add(cell(item, c, now));
            }
            ObjectNode object = row.putObject("object");
            object.put("kind", "PartialObjectMetadata");
            object.put("apiVersion", "meta.k8s.io/v1");
            object.set("metadata", item.path("metadata").deepCopy());
        }
        return table;
    }

    private JsonNode cell(JsonNode item, Column c, Instant now) {
        if (c.jsonPath().equals("#ports")) {
            StringJoiner j = new StringJoiner(",");
            item.path("spec").path("ports").forEach(p -> j.add(p.path("port").asText()
                    + (p.hasNonNull("nodePort") ? ":" + p.path("nodePort").asText() : "") + "/"
                    + p.path("protocol").asText("TCP")));
            return json.getNodeFactory().textNode(j.length() == 0 ? "<none>" : j.toString());
        }
        if (c.jsonPath().equals("#endpoints")) {
            StringJoiner j = new StringJoiner(",");
            item.path("endpoints").forEach(e -> e.path("addresses").forEach(a -> j.add(a.asText())));
            return json.getNodeFactory().textNode(j.length() == 0 ? "<unset>" : j.toString());
        }
        List<JsonNode> values = select(item, c.jsonPath());
        if (values.isEmpty() || values.stream().allMatch(JsonNode::isNull)) {
            if (c.name().equals("External-IP")) {
                return json.getNodeFactory().textNode("<pending>");
            }
            return json.getNodeFactory().nullNode();
        }
        if (c.type().equals("date")) {
            return json.getNodeFactory().textNode(age(values.get(0).asText(), now));
        }
        if (values.size() == 1 && !values.get(0).isContainerNode()) {
            return values.get(0);
        }
        StringJoiner j = new StringJoiner(",");
        for (JsonNode v : values) {
            if (v.isArray()) {
                v.forEach(e -> j.add(e.asText()));
            } else {
                j.add(v.asText());
            }
        }
        return json.getNodeFactory().textNode(j.toString());
    }

    /** Follows {@code .a.b[*].c}: the subset of JSONPath that printer columns use here. */
    static List<JsonNode> select(JsonNode root, String path) {
        List<JsonNode> current = List.of(root);
        for (String part : path.replaceFirst("^\\.", "").split("\\.")) {
            boolean all = part.endsWith("[*]");
            String field = all ? part.substring(0, part.length() - 3) : part;
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode n : current) {
                JsonNode v = n.path(field);
                if (v.isMissingNode() || v.isNull()) {
                    continue;
                }
                if (all && v.isArray()) {
                    v.forEach(next::add);
                } else {
                    next.add(v);
                }
            }
            current = next;
        }
        return current;
    }

    /** kubectl's short age form: 45s, 7m, 3h, 2d. */
    static String age(String timestamp, Instant now) {
        try {
            Duration d = Duration.between(Instant.parse(timestamp), now);
            long s = Math.max(0, d.getSeconds());
            if (s < 120) {
                return s + "s";
            }
            if (s < 7200) {
                return (s / 60) + "m";
            }
            if (s < 172800) {
                return (s / 3600) + "h";
            }
            return (s / 86400) + "d";
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }
}
