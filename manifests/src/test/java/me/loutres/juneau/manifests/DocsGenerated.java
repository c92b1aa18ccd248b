package me.loutres.juneau.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.AddressPoolSpec;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPPeerSpec;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkBgp;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.view.SnapshotClusterView;

/**
 * The parts of docs/ that are derived, never typed: the field tables of the API reference (from the generated CRD
 * schemas), the admission messages (from the validate corpus' golden transcripts, and for DELETE, which the corpus
 * cannot show, from the rules themselves). A doc marks each part with {@code <!-- generated: KEY -->} ...
 * {@code <!-- end generated -->}; everything outside the markers is prose.
 */
final class DocsGenerated {
    static final Path ROOT = Path.of("..");
    static final Path DOCS = ROOT.resolve("docs");
    static final Path GOLDEN = ROOT.resolve("cli/src/test/resources/corpus/golden");
    static final Pattern BLOCK = Pattern.compile("<!-- generated: (\\S+) -->\\n(.*?)<!-- end generated -->", Pattern.DOTALL);
    static final String UPDATE_COMMAND = "mvn -B -pl manifests -am verify -Dtest=DocsTest -Djuneau.updateDocs=true "
            + "-Dsurefire.failIfNoSpecifiedTests=false";

    /** Kinds in the order a user meets them. */
    static final List<String> CRD_FILES = List.of("addresspools.juneau.loutres.me.yaml", "externalnetworks.juneau.loutres.me.yaml",
            "serviceloadbalancers.juneau.loutres.me.yaml", "arpadvertisements.juneau.loutres.me.yaml",
            "bgppeers.juneau.loutres.me.yaml", "bfdprofiles.juneau.loutres.me.yaml", "bgpsessions.juneau.loutres.me.yaml",
            "nodenetworks.juneau.loutres.me.yaml");

    /** metav1.Condition's fields carry no description in the generated schema. */
    private static final Map<String, String> CONDITION_FIELDS = Map.of(
            "type", "The condition's name.",
            "status", "True, False or Unknown.",
            "reason", "One CamelCase word saying why (see docs/phases-and-conditions.md).",
            "message", "What happened and what to do, for people.",
            "lastTransitionTime", "When status last changed (RFC 3339).",
            "observedGeneration", "The metadata.generation the condition was computed from.");

    private DocsGenerated() {
    }

    /** What each key of a doc must contain. */
    static String content(String key) {
        int colon = key.indexOf(':');
        String kind = key.substring(0, colon);
        String arg = key.substring(colon + 1);
        return switch (kind) {
            case "crd" -> crdTable(arg);
            case "corpus" -> corpusMessages(arg);
            case "delete" -> deleteMessages(arg);
            default -> throw new AssertionError("unknown generated block " + key);
        };
    }

    /** The keys docs/api-reference.md and docs/admission.md must carry. */
    static Map<Path, Set<String>> requiredKeys() {
        Map<Path, Set<String>> out = new LinkedHashMap<>();
        Set<String> crds = new TreeSet<>();
        CRD_FILES.forEach(f -> crds.add("crd:" + f));
        try (Stream<Path> files = Files.list(Crds.COMMITTED)) {
            files.map(p -> p.getFileName().toString()).filter(f -> !f.equals("kustomization.yaml")).forEach(f -> crds.add("crd:" + f));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.put(DOCS.resolve("api-reference.md"), crds);
        Set<String> admission = new TreeSet<>();
        for (String c : corpusCasesWithMessages()) {
            admission.add("corpus:" + c);
        }
        admission.add("delete:" + JuneauConstants.PLURAL_ADDRESS_POOLS);
        admission.add("delete:" + JuneauConstants.PLURAL_EXTERNAL_NETWORKS);
        admission.add("delete:" + JuneauConstants.PLURAL_BGP_PEERS);
        admission.add("delete:" + JuneauConstants.PLURAL_BFD_PROFILES);
        out.put(DOCS.resolve("admission.md"), admission);
        return out;
    }

    // ---- API reference ---------------------------------------------------------------------------------------

    static String crdTable(String file) {
        JsonNode crd = Install.documents(Crds.COMMITTED.resolve(file)).get(0);
        JsonNode spec = crd.path("spec");
        JsonNode version = spec.path("versions").get(0);
        StringBuilder sb = new StringBuilder();
        sb.append("`").append(spec.path("group").asText()).append('/').append(version.path("name").asText()).append("`, kind `")
                .append(spec.path("names").path("kind").asText()).append("`, ").append(spec.path("scope").asText().equals("Cluster") ? "cluster-scoped" : "namespaced")
                .append("; plural `").append(spec.path("names").path("plural").asText()).append('`');
        if (spec.path("names").has("shortNames")) {
            sb.append(", short name ").append(String.join(", ", KustomizeRenderTest.texts(spec.path("names").path("shortNames"))
                    .stream().map(s -> "`" + s + "`").toList()));
        }
        if (version.path("subresources").has("status")) {
            sb.append("; `status` is a subresource");
        }
        sb.append(".\n\n| field | type | required | description |\n|---|---|---|---|\n");
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        for (String top : List.of("spec", "status")) {
            JsonNode node = schema.path("properties").path(top);
            if (!node.isMissingNode()) {
                rows(top, node, schema.path("required"), sb, false);
            }
        }
        sb.append("\n`kubectl get` columns: ");
        List<String> columns = new ArrayList<>();
        for (JsonNode c : version.path("additionalPrinterColumns")) {
            columns.add("`" + c.path("name").asText() + "` (`" + c.path("jsonPath").asText() + "`)");
        }
        sb.append(String.join(", ", columns)).append(".\n");
        return sb.toString();
    }

    private static void rows(String path, JsonNode node, JsonNode parentRequired, StringBuilder sb, boolean conditionItem) {
        String name = path.substring(path.lastIndexOf('.') + 1).replace("[]", "");
        boolean required = KustomizeRenderTest.texts(parentRequired).contains(name);
        String description = node.path("description").asText("");
        if (description.isEmpty() && conditionItem) {
            description = CONDITION_FIELDS.getOrDefault(name, "");
        }
        if (description.isEmpty() && path.equals("spec")) {
            description = "What the object asks for.";
        }
        if (description.isEmpty() && path.equals("status")) {
            description = "What was observed, written through the status subresource; never by hand.";
        }
        for (JsonNode v : node.path("x-kubernetes-validations")) {
            String m = v.path("message").asText();
            if (!description.contains(m)) {
                description += (description.isEmpty() ? "" : " ") + "Enforced by the API server: " + m + ".";
            }
        }
        sb.append("| `").append(path).append("` | ").append(type(node)).append(" | ").append(required ? "yes" : "")
                .append(" | ").append(description.replace("|", "\\|")).append(" |\n");
        boolean conditions = name.equals("conditions");
        JsonNode items = node.path("items");
        JsonNode container = node.path("type").asText().equals("array") ? items : node;
        String prefix = node.path("type").asText().equals("array") ? path + "[]" : path;
        Iterator<Map.Entry<String, JsonNode>> props = container.path("properties").fields();
        while (props.hasNext()) {
            Map.Entry<String, JsonNode> p = props.next();
            rows(prefix + "." + p.getKey(), p.getValue(), container.path("required"), sb, conditions);
        }
    }

    private static String type(JsonNode node) {
        String t = node.path("type").asText();
        String base = t.equals("array") ? "list of " + node.path("items").path("type").asText() : t;
        if (node.has("enum")) {
            base += ": " + String.join(" or ", KustomizeRenderTest.texts(node.path("enum")).stream().map(s -> "`" + s + "`").toList());
        }
        return base;
    }

    // ---- admission messages ----------------------------------------------------------------------------------

    private static final Pattern DENIAL = Pattern.compile("admission webhook \"([^\"]+)\" denied the request: (.*)$");
    private static final Pattern WHERE = Pattern.compile(" \\[[^\\[\\]]*, document \\d+\\]$");

    static List<String> corpusCasesWithMessages() {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(GOLDEN)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("[0-9]+-[a-z0-9-]+\\.txt")).sorted().toList()) {
                if (!corpusMessages(f.getFileName().toString().replace(".txt", "")).isEmpty()) {
                    out.add(f.getFileName().toString().replace(".txt", ""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The denials (webhook and message) and warnings of one corpus case, in the order validate printed them. */
    static String corpusMessages(String name) {
        List<String> lines;
        try {
            lines = Files.readAllLines(GOLDEN.resolve(name + ".txt"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder sb = new StringBuilder();
        Set<String> seen = new java.util.HashSet<>();
        for (String line : lines) {
            String entry = null;
            Matcher m = DENIAL.matcher(line);
            if (m.find()) {
                entry = "denied by " + m.group(1) + ":\n  " + WHERE.matcher(m.group(2)).replaceFirst("");
            } else if (line.startsWith("Warning: ")) {
                entry = "warning:\n  " + WHERE.matcher(line.substring("Warning: ".length())).replaceFirst("");
            }
            if (entry != null && seen.add(entry)) {
                sb.append(entry).append('\n');
            }
        }
        return sb.isEmpty() ? "" : "```text\n" + sb + "```\n";
    }

    /**
     * DELETE of a pool a network lists, of a network a ServiceLoadBalancer uses, of a BGPPeer a network lists and of
     * a BFDProfile a peer names, judged by the rules.
     */
    static String deleteMessages(String resource) {
        AddressPool pool = new AddressPool();
        pool.setMetadata(new ObjectMetaBuilder().withName("pool-a").build());
        pool.setSpec(new AddressPoolSpec(JuneauConstants.MODE_ARP, List.of("192.0.2.10-192.0.2.20")));
        ExternalNetwork network = new ExternalNetwork();
        network.setMetadata(new ObjectMetaBuilder().withName("lan").build());
        network.setSpec(new ExternalNetworkSpec(JuneauConstants.MODE_ARP, List.of("pool-a")));
        SnapshotClusterView view = SnapshotClusterView.empty().with(pool).with(network);
        for (String svc : List.of("web", "api")) {
            ServiceLoadBalancer slb = new ServiceLoadBalancer();
            slb.setMetadata(new ObjectMetaBuilder().withName(svc).withNamespace("shop").build());
            ServiceLoadBalancerSpec spec = new ServiceLoadBalancerSpec();
            spec.setExternalNetwork("lan");
            slb.setSpec(spec);
            view = view.with(slb);
        }
        BFDProfile fast = new BFDProfile();
        fast.setMetadata(new ObjectMetaBuilder().withName("fast").build());
        BGPPeer tor = new BGPPeer();
        tor.setMetadata(new ObjectMetaBuilder().withName("tor-1").build());
        BGPPeerSpec peerSpec = new BGPPeerSpec();
        peerSpec.setPeerAddress("198.18.0.1");
        peerSpec.setBfdProfile("fast");
        tor.setSpec(peerSpec);
        ExternalNetwork edge = new ExternalNetwork();
        edge.setMetadata(new ObjectMetaBuilder().withName("edge").build());
        ExternalNetworkSpec edgeSpec = new ExternalNetworkSpec(JuneauConstants.MODE_BGP, List.of("pool-b"));
        ExternalNetworkBgp bgp = new ExternalNetworkBgp();
        bgp.setPeers(List.of("tor-1"));
        edgeSpec.setBgp(bgp);
        edge.setSpec(edgeSpec);
        view = view.with(fast).with(tor).with(edge);
        HasMetadata target = switch (resource) {
            case JuneauConstants.PLURAL_ADDRESS_POOLS -> pool;
            case JuneauConstants.PLURAL_BGP_PEERS -> tor;
            case JuneauConstants.PLURAL_BFD_PROFILES -> fast;
            default -> network;
        };
        String kind = target.getKind();
        AdmissionResponse r = new AdmissionEngine(AdmissionSettings.defaults()).review("/validate/" + resource,
                new AdmissionRequestBuilder().withUid("docs")
                        .withKind(new GroupVersionKind(JuneauConstants.GROUP, kind, "v1alpha1"))
                        .withResource(new GroupVersionResource(JuneauConstants.GROUP, resource, "v1alpha1"))
                        .withRequestKind(new GroupVersionKind(JuneauConstants.GROUP, kind, "v1alpha1"))
                        .withRequestResource(new GroupVersionResource(JuneauConstants.GROUP, resource, "v1alpha1"))
                        .withName(target.getMetadata().getName()).withOperation("DELETE")
                        .withUserInfo(new UserInfoBuilder().withUsername("alice").build())
                        .withOldObject(target).withDryRun(false).build(), view);
        if (Boolean.TRUE.equals(r.getAllowed())) {
            throw new AssertionError("DELETE of " + kind + " " + target.getMetadata().getName() + " in use was allowed");
        }
        return "```text\ndenied by " + JuneauConstants.validateWebhookName(resource) + ":\n  " + r.getStatus().getMessage() + "\n```\n";
    }
}
