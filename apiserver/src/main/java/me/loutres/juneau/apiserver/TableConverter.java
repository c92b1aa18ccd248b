package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Server-side printing ({@code meta.k8s.io/v1 Table}) for {@code kubectl get}: the columns kube-apiserver's
 * printers show for the built-in kinds (k8s.io/kubernetes/pkg/printers/internalversion), and for custom resources
 * the CRD's {@code additionalPrinterColumns}, read from the installed CRD as kube-apiserver does.
 */
final class TableConverter {
    /** A column; a {@code jsonPath} starting with {@code #} is computed (ports, node status, event object). */
    record Column(String name, String type, String jsonPath, int priority) {
    }

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private TableConverter() {
    }

    static Column col(String name, String path) {
        return new Column(name, "string", path, 0);
    }

    static Column age() {
        return new Column("Age", "date", ".metadata.creationTimestamp", 0);
    }

    static List<Column> serviceColumns() {
        return List.of(col("Type", ".spec.type"), col("Cluster-IP", "#clusterIP"), col("External-IP", "#externalIP"),
                col("Port(s)", "#ports"), age(), new Column("Selector", "string", "#selector", 1));
    }

    static List<Column> nodeColumns() {
        return List.of(col("Status", "#nodeStatus"), col("Roles", "#roles"), age(),
                col("Version", ".status.nodeInfo.kubeletVersion"),
                new Column("Internal-IP", "string", "#internalIP", 1));
    }

    static List<Column> endpointSliceColumns() {
        return List.of(col("AddressType", ".addressType"), col("Ports", "#slicePorts"),
                col("Endpoints", "#endpoints"), age());
    }

    /** kube's event printer: no leading Name column (it comes last, wide only). */
    static List<Column> eventColumns() {
        return List.of(new Column("Last Seen", "string", "#lastSeen", 0), col("Type", ".type"),
                col("Reason", ".reason"), col("Object", "#involvedObject"),
                new Column("Subobject", "string", ".involvedObject.fieldPath", 1),
                new Column("Source", "string", "#source", 1), col("Message", ".message"),
                new Column("First Seen", "string", "#firstSeen", 1), new Column("Count", "integer", ".count", 1),
                new Column("Name", "string", ".metadata.name", 1));
    }

    static List<Column> crdColumns(JsonNode version) {
        List<Column> list = new ArrayList<>();
        boolean hasAge = false;
        for (JsonNode c : version.path("additionalPrinterColumns")) {
            list.add(new Column(c.path("name").asText(), c.path("type").asText("string"), c.path("jsonPath").asText(),
                    c.path("priority").asInt(0)));
            hasAge |= c.path("jsonPath").asText().equals(".metadata.creationTimestamp");
        }
        if (!hasAge) {
            list.add(age()); // kube adds Age when the CRD names no creationTimestamp column
        }
        return list;
    }

    /** A Table for a list (or one object) of the resource. */
    static ObjectNode toTable(ResourceType type, List<JsonNode> items, String resourceVersion, Instant now,
            boolean withDefinitions) {
        List<Column> cols = type.columns().isEmpty() ? List.of(age()) : type.columns();
        boolean nameFirst = !type.plural().equals("events") || !type.group().isEmpty();
        ObjectNode table = F.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        ObjectNode meta = table.putObject("metadata");
        if (resourceVersion != null) {
            meta.put("resourceVersion", resourceVersion);
        }
        ArrayNode defs = table.putArray("columnDefinitions");
        if (withDefinitions) {
            if (nameFirst) {
                defs.addObject().put("name", "Name").put("type", "string").put("format", "name")
                        .put("description", "Name must be unique within a namespace.").put("priority", 0);
            }
            for (Column c : cols) {
                defs.addObject().put("name", c.name()).put("type", c.type().equals("date") ? "date" : c.type())
                        .put("format", "").put("description", c.name()).put("priority", c.priority());
            }
        }
        ArrayNode rows = table.putArray("rows");
        for (JsonNode item : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            if (nameFirst) {
                cells.add(item.path("metadata").path("name").asText());
            }
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

    private static JsonNode text(String s) {
        return F.textNode(s);
    }

    /** One cell: the computed columns kubectl's built-in printers show (named {@code #...}), else a JSONPath. */
    private static JsonNode cell(JsonNode item, Column c, Instant now) {
        JsonNode spec = item.path("spec");
        return switch (c.jsonPath()) {
            case "#ports" -> text(joined(spec.path("ports"), p -> p.path("port").asText()
                    + (p.hasNonNull("nodePort") ? ":" + p.path("nodePort").asText() : "") + "/"
                    + p.path("protocol").asText("TCP"), "<none>"));
            case "#clusterIP" -> text(spec.path("clusterIP").asText("").isEmpty() ? "<none>"
                    : spec.path("clusterIP").asText());
            case "#externalIP" -> text(externalIps(item));
            case "#selector" -> text(joinedEntries(spec.path("selector"), e -> e.getKey() + "=" + e.getValue().asText(),
                    "<none>"));
            case "#nodeStatus" -> text(nodeStatus(item));
            case "#roles" -> text(joinedEntries(item.path("metadata").path("labels"),
                    e -> e.getKey().startsWith(ROLE_PREFIX) ? e.getKey().substring(ROLE_PREFIX.length()) : null,
                    "<none>"));
            case "#internalIP" -> text(internalIp(item));
            case "#slicePorts" -> text(joined(item.path("ports"), p -> p.path("port").asText(), "<unset>"));
            case "#endpoints" -> text(joined(item.path("endpoints"), e -> {
                StringJoiner j = new StringJoiner(",");
                e.path("addresses").forEach(a -> j.add(a.asText()));
                return j.length() == 0 ? null : j.toString();
            }, "<unset>"));
            case "#involvedObject" -> text(item.path("involvedObject").path("kind").asText()
                    .toLowerCase(Locale.ROOT) + "/" + item.path("involvedObject").path("name").asText());
            case "#source" -> text(eventSource(item));
            case "#lastSeen" -> text(ageOr(firstText(item, "lastTimestamp", "eventTime", "firstTimestamp"), now));
            case "#firstSeen" -> text(ageOr(firstText(item, "firstTimestamp", "eventTime"), now));
            default -> pathCell(item, c, now);
        };
    }

    private static final String ROLE_PREFIX = "node-role.kubernetes.io/";

    /** The elements' texts joined by commas (a null text is left out), or {@code none} when there are none. */
    private static String joined(JsonNode array, java.util.function.Function<JsonNode, String> text, String none) {
        StringJoiner j = new StringJoiner(",");
        array.forEach(e -> {
            String t = text.apply(e);
            if (t != null) {
                j.add(t);
            }
        });
        return j.length() == 0 ? none : j.toString();
    }

    private static String joinedEntries(JsonNode object,
            java.util.function.Function<java.util.Map.Entry<String, JsonNode>, String> text, String none) {
        StringJoiner j = new StringJoiner(",");
        object.properties().forEach(e -> {
            String t = text.apply(e);
            if (t != null) {
                j.add(t);
            }
        });
        return j.length() == 0 ? none : j.toString();
    }

    private static String externalIps(JsonNode item) {
        StringJoiner j = new StringJoiner(",");
        item.path("status").path("loadBalancer").path("ingress").forEach(i -> j.add(
                i.hasNonNull("ip") ? i.path("ip").asText() : i.path("hostname").asText()));
        item.path("spec").path("externalIPs").forEach(i -> j.add(i.asText()));
        if (j.length() > 0) {
            return j.toString();
        }
        return "LoadBalancer".equals(item.path("spec").path("type").asText()) ? "<pending>" : "<none>";
    }

    private static String nodeStatus(JsonNode item) {
        String ready = "Unknown";
        for (JsonNode cond : item.path("status").path("conditions")) {
            if ("Ready".equals(cond.path("type").asText())) {
                ready = "True".equals(cond.path("status").asText()) ? "Ready" : "NotReady";
            }
        }
        return item.path("spec").path("unschedulable").asBoolean(false) ? ready + ",SchedulingDisabled" : ready;
    }

    private static String internalIp(JsonNode item) {
        for (JsonNode a : item.path("status").path("addresses")) {
            if ("InternalIP".equals(a.path("type").asText())) {
                return a.path("address").asText();
            }
        }
        return "<none>";
    }

    private static String eventSource(JsonNode item) {
        String component = item.path("source").path("component").asText(item.path("reportingComponent").asText(""));
        String host = item.path("source").path("host").asText("");
        return host.isEmpty() ? component : component + ", " + host;
    }

    private static String ageOr(String timestamp, Instant now) {
        return timestamp == null ? "<unknown>" : age(timestamp, now);
    }

    /** A printer column's JSONPath: null when absent, a date as an age, several values joined by commas. */
    private static JsonNode pathCell(JsonNode item, Column c, Instant now) {
        List<JsonNode> values = select(item, c.jsonPath());
        if (values.isEmpty() || values.stream().allMatch(JsonNode::isNull)) {
            return F.nullNode();
        }
        if (c.type().equals("date")) {
            return text(age(values.get(0).asText(), now));
        }
        if (values.size() == 1 && !values.get(0).isContainerNode()) {
            return values.get(0);
        }
        StringJoiner j = new StringJoiner(",");
        for (JsonNode v : values) {
            if (v.isArray()) {
                v.forEach(e -> j.add(e.asText()));
            } else {
                j.add(v.isContainerNode() ? v.toString() : v.asText());
            }
        }
        return text(j.toString());
    }

    private static String firstText(JsonNode item, String... fields) {
        for (String f : fields) {
            if (item.hasNonNull(f) && !item.path(f).asText().isEmpty()) {
                return item.path(f).asText();
            }
        }
        return null;
    }

    /**
     * Follows {@code .a.b[*].c} and {@code .a[?(@.type=="X")].b}: the subset of JSONPath that printer columns use
     * here (the ServiceLoadBalancer's Announced column picks one condition by its type).
     */
    static List<JsonNode> select(JsonNode root, String path) {
        List<JsonNode> current = List.of(root);
        java.util.regex.Matcher m = STEP.matcher(path);
        int at = 0;
        while (at < path.length()) {
            if (!m.find(at) || m.start() != at) {
                return List.of(); // outside the subset: an empty cell, as kubectl shows for a path that finds nothing
            }
            at = m.end();
            String field = m.group(1);
            boolean all = m.group(2) != null;
            String filterField = m.group(3);
            String filterValue = m.group(4);
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode n : current) {
                JsonNode v = n.path(field);
                if (v.isMissingNode() || v.isNull()) {
                    continue;
                }
                if (filterField != null && v.isArray()) {
                    v.forEach(e -> {
                        if (filterValue.equals(e.path(filterField).asText(null))) {
                            next.add(e);
                        }
                    });
                } else if (all && v.isArray()) {
                    v.forEach(next::add);
                } else if (filterField == null) {
                    next.add(v);
                }
            }
            current = next;
        }
        return current;
    }

    private static final java.util.regex.Pattern STEP = java.util.regex.Pattern.compile(
            "\\.([A-Za-z0-9_-]+)(?:(\\[\\*\\])|\\[\\?\\(@\\.([A-Za-z0-9_-]+)\\s*==\\s*[\"']([^\"']*)[\"']\\)\\])?");

    /** kubectl's short age form (duration.HumanDuration): 45s, 7m, 3h, 2d. */
    static String age(String timestamp, Instant now) {
        try {
            Duration d = Duration.between(Instant.parse(timestamp), now);
            long s = Math.max(0, d.getSeconds());
            if (s < 120) {
                return s + "s";
            }
            if (s < 600) {
                long m = s / 60;
                long rest = s % 60;
                return rest == 0 ? m + "m" : m + "m" + rest + "s";
            }
            if (s < 10800) {
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
