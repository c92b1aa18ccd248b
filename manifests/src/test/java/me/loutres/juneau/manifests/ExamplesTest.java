package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.authentication.UserInfoBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.admission.Endpoint;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.SnapshotClusterView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The examples are valid against the generated CRD schemas (networknt json-schema-validator, strict about unknown
 * fields like kubectl's --validate=strict) and pass the admission rules (AdmissionEngine, the webhook's own engine),
 * applied in dependency order as an operator would.
 */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("examples");
    static final Path BAD = Path.of("src/test/resources/bad-examples");
    /** The demo's story (bin/juneau demo plays these files): its own pools, and objects the webhook must refuse. */
    static final Path DEMO = EXAMPLES.resolve("demo");
    static final Path DEMO_REFUSED = DEMO.resolve("refused");
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    /**
     * Dependency order: what an object names is created before it (a peer names its BFDProfile, a Service's
     * namespace exists before it, etc.).
     */
    static final Map<String, Integer> ORDER = Map.of("Namespace", -1, JuneauConstants.KIND_ADDRESS_POOL, 0,
            JuneauConstants.KIND_BFD_PROFILE, 1, JuneauConstants.KIND_BGP_PEER, 2,
            JuneauConstants.KIND_EXTERNAL_NETWORK, 3, "Service", 4);
    static Map<String, JsonSchema> schemas;
    static Map<String, JsonNode> crds;

    record Example(Path file, int index, JsonNode content) {
        String kind() {
            return content.path("kind").asText();
        }

        @Override
        public String toString() {
            return file + "#" + index + " " + kind() + " " + content.path("metadata").path("name").asText();
        }
    }

    @BeforeAll
    static void loadSchemas() {
        schemas = new HashMap<>();
        crds = new HashMap<>();
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
        for (Path f : Install.yamlFiles(Crds.COMMITTED)) {
            for (JsonNode crd : Install.documents(f)) {
                if (!"CustomResourceDefinition".equals(crd.path("kind").asText())) {
                    continue;
                }
                String kind = crd.path("spec").path("names").path("kind").asText();
                JsonNode openApi = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema").deepCopy();
                schemas.put(kind, factory.getSchema(strict((ObjectNode) openApi, true)));
                crds.put(kind, crd);
            }
        }
        assertThat(schemas).containsOnlyKeys(JuneauConstants.KIND_ADDRESS_POOL, JuneauConstants.KIND_EXTERNAL_NETWORK,
                JuneauConstants.KIND_SERVICE_LOAD_BALANCER, JuneauConstants.KIND_ARP_ADVERTISEMENT,
                JuneauConstants.KIND_BGP_PEER, JuneauConstants.KIND_BFD_PROFILE, JuneauConstants.KIND_BGP_SESSION,
                JuneauConstants.KIND_NODE_NETWORK);
    }

    /**
     * The API server prunes or (with strict field validation) rejects fields a structural schema does not declare;
     * JSON Schema allows them by default. Declare that explicitly, and add the fields every object has at the root.
     */
    static ObjectNode strict(ObjectNode schema, boolean root) {
        if (root) {
            ObjectNode props = schema.with("properties");
            props.putObject("apiVersion").put("type", "string");
            props.putObject("kind").put("type", "string");
            props.putObject("metadata").put("type", "object");
        }
        if (schema.has("properties") && !schema.has("additionalProperties")
                && !schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            schema.put("additionalProperties", false);
        }
        Iterator<JsonNode> children = schema.path("properties").elements();
        while (children.hasNext()) {
            JsonNode c = children.next();
            if (c instanceof ObjectNode o) {
                strict(o, false);
            }
        }
        if (schema.get("items") instanceof ObjectNode items) {
            strict(items, false);
        }
        return schema;
    }

    static List<Example> examples(Path dir) {
        List<Example> out = new ArrayList<>();
        for (Path f : Install.yamlFiles(dir)) {
            List<JsonNode> docs = Install.documents(f);
            for (int i = 0; i < docs.size(); i++) {
                out.add(new Example(f, i, docs.get(i)));
            }
        }
        return out;
    }

    /** The examples a user applies together: everything but the demo's, which has pools of its own. */
    static List<Example> userExamples() {
        return examples(EXAMPLES).stream().filter(e -> !e.file().startsWith(DEMO)).toList();
    }

    static Set<ValidationMessage> schemaErrors(Example e) {
        JsonSchema schema = schemas.get(e.kind());
        assertThat(schema).as("%s: a schema for kind %s", e, e.kind()).isNotNull();
        return schema.validate(e.content());
    }

    @Test
    void examplesCoverBothNetworkTypesAndManagedServices() {
        List<Example> all = userExamples();
        assertThat(all).extracting(Example::kind).contains(JuneauConstants.KIND_BGP_PEER, JuneauConstants.KIND_BFD_PROFILE);
        assertThat(all.stream().filter(e -> e.kind().equals(JuneauConstants.KIND_EXTERNAL_NETWORK))
                .map(e -> e.content().path("spec").path("bgp").path("peers").toString())).contains("[\"tor-1\"]");
        assertThat(all.stream().filter(e -> e.kind().equals(JuneauConstants.KIND_ADDRESS_POOL))
                .map(e -> e.content().path("spec").path("advertiseMode").asText())).contains("arp", "bgp");
        assertThat(all.stream().filter(e -> e.kind().equals("Service")).map(e -> SERIALIZATION.convertValue(e.content(), Service.class))
                .filter(s -> me.loutres.juneau.policy.ManagedServices.CLASSED.manages(s))).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void customResourceExamplesValidateAgainstTheGeneratedSchemas() {
        int checked = 0;
        for (Example e : examples(EXAMPLES)) {
            if (e.content().path("apiVersion").asText().startsWith(JuneauConstants.GROUP + "/")) {
                assertThat(e.content().path("apiVersion").asText()).isEqualTo(JuneauConstants.API_VERSION);
                assertThat(schemaErrors(e)).as("%s", e).isEmpty();
                checked++;
            } else {
                // core objects must at least map onto their Kubernetes model class
                assertThat(SERIALIZATION.convertValue(e.content(), HasMetadata.class).getClass().getSimpleName()).isEqualTo(e.kind());
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(5);
    }

    @Test
    void schemaCheckCatchesTyposAndWrongTypes() {
        Map<String, String> expected = Map.of("schema-typo.yaml", "addressPool", "schema-type.yaml", "addresses",
                "schema-enum.yaml", "advertiseMode");
        for (Example e : examples(BAD)) {
            String name = e.file().getFileName().toString();
            if (expected.containsKey(name)) {
                assertThat(schemaErrors(e)).as("%s", e).isNotEmpty()
                        .anyMatch(m -> m.getMessage().contains(expected.get(name)));
            }
        }
    }

    @Test
    void examplesPassTheAdmissionRulesInDependencyOrder() {
        List<Example> ordered = new ArrayList<>(userExamples());
        ordered.sort(Comparator.comparingInt(e -> ORDER.getOrDefault(e.kind(), 9)));
        AdmissionEngine engine = new AdmissionEngine(AdmissionSettings.defaults());
        SnapshotClusterView view = SnapshotClusterView.empty();
        for (Example e : ordered) {
            HasMetadata object = SERIALIZATION.convertValue(e.content(), HasMetadata.class);
            for (Endpoint endpoint : AdmissionEngine.endpointsFor(resourceOf(e))) {
                AdmissionResponse r = engine.review(endpoint.path(), create(e, object, endpoint.resource()), view);
                assertThat(r.getAllowed()).as("%s on %s: %s", e, endpoint.path(),
                        r.getStatus() == null ? "" : r.getStatus().getMessage()).isTrue();
                // the examples are written in their final form: the mutating webhook has nothing to change
                assertThat(r.getPatch()).as("%s would be patched by %s", e, endpoint.path()).isNull();
            }
            view = view.with(object);
        }
    }

    /**
     * The demo's files behave as the demo shows them: in file-name order, as {@code kubectl apply -f} takes a
     * directory (pools, networks, then Services), with its three
     * Nodes, each good file is admitted and each file under refused/ is denied. The mutating webhook may change the
     * good ones (web.yaml shows the externalTrafficPolicy warning).
     */
    @Test
    void theDemoManifestsAreAdmittedOrRefusedAsTheDemoShowsThem() {
        AdmissionEngine engine = new AdmissionEngine(AdmissionSettings.defaults());
        SnapshotClusterView view = SnapshotClusterView.empty();
        for (int i = 1; i <= 3; i++) {
            view = view.with(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("node-" + (char) ('a' + i - 1))
                    .endMetadata().withNewStatus().addNewAddress().withType("InternalIP").withAddress("192.168.10.1" + i)
                    .endAddress().endStatus().build());
        }
        // in the order `kubectl apply -f manifests/examples/demo/` sends them, file names sorted: numbered so that
        // pools come before their networks and networks before the Services naming them
        List<Example> good = new ArrayList<>(examples(DEMO).stream().filter(e -> !e.file().startsWith(DEMO_REFUSED)).toList());
        good.sort(Comparator.comparing(e -> e.file().getFileName().toString()));
        assertThat(good).extracting(e -> e.file().getFileName().toString()).allMatch(n -> n.matches("\\d\\d-.*"),
                "numbered, as kubectl applies a directory in file-name order");
        assertThat(good).extracting(Example::kind).contains(JuneauConstants.KIND_ADDRESS_POOL, "Service", "EndpointSlice");
        for (Example e : good) {
            JsonNode content = e.content();
            HasMetadata object = SERIALIZATION.convertValue(content, HasMetadata.class);
            for (Endpoint endpoint : AdmissionEngine.endpointsFor(resourceOf(e))) {
                AdmissionResponse r = engine.review(endpoint.path(), create(e, object, endpoint.resource()), view);
                assertThat(r.getAllowed()).as("%s on %s: %s", e, endpoint.path(),
                        r.getStatus() == null ? "" : r.getStatus().getMessage()).isTrue();
                if (r.getPatch() != null) {
                    // the API server validates what the mutating webhook made of the object
                    content = me.loutres.juneau.admission.JsonPatch.apply(content, r.getPatch());
                    object = SERIALIZATION.convertValue(content, HasMetadata.class);
                }
            }
            view = view.with(object);
        }
        List<Example> refused = examples(DEMO_REFUSED);
        assertThat(refused).hasSizeGreaterThanOrEqualTo(7);
        for (Example e : refused) {
            HasMetadata object = SERIALIZATION.convertValue(e.content(), HasMetadata.class);
            boolean denied = false;
            for (Endpoint endpoint : AdmissionEngine.endpointsFor(resourceOf(e))) {
                AdmissionResponse r = engine.review(endpoint.path(), create(e, object, endpoint.resource()), view);
                denied |= !r.getAllowed();
            }
            assertThat(denied).as("%s must be refused", e).isTrue();
        }
    }

    @Test
    void admissionCheckDeniesABadPool() {
        Example bad = examples(BAD).stream().filter(e -> e.file().endsWith("admission-denied.yaml")).findFirst().orElseThrow();
        assertThat(schemaErrors(bad)).isEmpty();
        HasMetadata object = SERIALIZATION.convertValue(bad.content(), HasMetadata.class);
        AdmissionResponse r = new AdmissionEngine(AdmissionSettings.defaults())
                .review("/validate/addresspools", create(bad, object, JuneauConstants.PLURAL_ADDRESS_POOLS), SnapshotClusterView.empty());
        assertThat(r.getAllowed()).isFalse();
        assertThat(r.getStatus().getMessage()).contains("192.168.20.0/24");
    }

    static String resourceOf(Example e) {
        String group = e.content().path("apiVersion").asText().contains("/")
                ? e.content().path("apiVersion").asText().split("/")[0] : "";
        return AdmissionEngine.resourceOf(group, e.kind()).orElse("none");
    }

    static AdmissionRequest create(Example e, HasMetadata object, String resource) {
        String apiVersion = e.content().path("apiVersion").asText();
        String group = apiVersion.contains("/") ? apiVersion.split("/")[0] : "";
        String version = apiVersion.contains("/") ? apiVersion.split("/")[1] : apiVersion;
        return new AdmissionRequestBuilder()
                .withUid(UUID.randomUUID().toString())
                .withKind(new GroupVersionKind(group, e.kind(), version))
                .withResource(new GroupVersionResource(group, resource, version))
                .withRequestKind(new GroupVersionKind(group, e.kind(), version))
                .withRequestResource(new GroupVersionResource(group, resource, version))
                .withName(object.getMetadata().getName())
                .withNamespace(object.getMetadata().getNamespace())
                .withOperation("CREATE")
                .withUserInfo(new UserInfoBuilder().withUsername("kubernetes-admin").withGroups("system:masters").build())
                .withObject(object)
                .withDryRun(false)
                .build();
    }

}
