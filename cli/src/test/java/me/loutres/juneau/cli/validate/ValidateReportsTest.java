package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import me.loutres.juneau.cli.CommandRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every output format of {@code validate} over a tree with accepted, rejected and warned objects and an unreadable
 * file: each report is complete (the unreadable file is an entry with its file and line); JUnit is valid against the
 * Jenkins JUnit schema and SARIF against the SARIF 2.1.0 schema (both published; sources in
 * src/test/resources/schemas/README.md).
 */
class ValidateReportsTest {
    static final Path SCHEMAS = Path.of("src/test/resources/schemas");
    static Path tree;
    static Path broken;

    @TempDir
    static Path dir;

    @BeforeAll
    static void tree() throws Exception {
        tree = Files.createDirectories(dir.resolve("tree"));
        Files.copy(ValidateGoldenTest.CASES.resolve("01-good-stack/network.yaml"), tree.resolve("a-network.yaml"));
        // a refused Service (SCTP), a warned one (no externalTrafficPolicy) and one accepted silently
        Files.writeString(tree.resolve("b-services.yaml"), """
                apiVersion: v1
                kind: Service
                metadata:
                  name: refused
                  annotations: {juneau.loutres.me/load-balancer-external-network: edge}
                spec:
                  type: LoadBalancer
                  loadBalancerClass: juneau.loutres.me/load-balancer
                  externalTrafficPolicy: Local
                  ports: [{port: 80, protocol: SCTP}]
                ---
                apiVersion: v1
                kind: Service
                metadata:
                  name: warned
                  annotations: {juneau.loutres.me/load-balancer-external-network: edge}
                spec:
                  type: LoadBalancer
                  loadBalancerClass: juneau.loutres.me/load-balancer
                  ports: [{port: 80}]
                """);
        broken = Files.writeString(tree.resolve("c-broken.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n");
    }

    static CommandRun run(String format) {
        return CommandRun.of("validate", tree.toString(), "-o", format);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ValidateCommand.Format.class)
    void everyFormatNamesTheUnreadableFileBesideTheVerdicts(ValidateCommand.Format format) {
        CommandRun run = run(format.name());
        assertThat(run.exit()).as(run.transcript()).isEqualTo(ValidateCommand.EXIT_UNREADABLE);
        // text is for a terminal: its error lines are on standard error, beside the verdicts
        String report = format == ValidateCommand.Format.text ? run.out() + run.err() : run.out();
        assertThat(report).as(run.transcript()).contains(broken.toString()).contains("SCTP")
                .contains("write externalTrafficPolicy: Local in the manifest to stop seeing this warning");
        assertThat(run.err().lines()).as(run.err()).singleElement().asString()
                .startsWith("error: " + broken + ":5: not valid YAML");
    }

    @Test
    void junitIsValidAgainstThePublishedJunitSchemaAndCountsEverything() throws Exception {
        String xml = run("junit").out();
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(SCHEMAS.resolve("junit-10.xsd").toFile())
                .newValidator().validate(new StreamSource(new StringReader(xml)));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(xml)));
        Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
        NodeList cases = doc.getElementsByTagName("testcase");
        assertThat(suite.getAttribute("tests")).isEqualTo(String.valueOf(cases.getLength()));
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("errors")).isEqualTo("1");
        Element error = (Element) doc.getElementsByTagName("error").item(0);
        assertThat(error.getAttribute("type")).isEqualTo("Unreadable");
        assertThat(((Element) error.getParentNode()).getAttribute("name")).isEqualTo(broken + ":5 (unreadable)");
        assertThat(doc.getElementsByTagName("failure").item(0).getTextContent()).contains("\"SCTP\" is not supported");
    }

    @Test
    void theSchemaCheckWouldCatchABrokenJunitFile() {
        String xml = run("junit").out().replaceFirst("(<testsuite name=\"juneau validate\") tests=\"\\d+\"", "$1");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() ->
                SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(SCHEMAS.resolve("junit-10.xsd").toFile())
                        .newValidator().validate(new StreamSource(new StringReader(xml)))))
                .isInstanceOf(org.xml.sax.SAXParseException.class).hasMessageContaining("tests");
    }

    static JsonSchema sarifSchema() throws Exception {
        JsonNode schema = new ObjectMapper().readTree(SCHEMAS.resolve("sarif-schema-2.1.0.json").toFile());
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schema);
    }

    @Test
    void sarifIsValidAgainstTheSarif210SchemaWithAResultPerProblem() throws Exception {
        JsonNode sarif = new ObjectMapper().readTree(run("sarif").out());
        Set<ValidationMessage> problems = sarifSchema().validate(sarif);
        assertThat(problems).isEmpty();
        JsonNode results = sarif.path("runs").get(0).path("results");
        List<String> rules = new ArrayList<>();
        results.forEach(r -> rules.add(r.path("ruleId").asText() + "/" + r.path("level").asText()));
        assertThat(rules).containsExactlyInAnyOrder("unreadable-input/error", "denied/error", "warning/warning");
        JsonNode unreadable = results.get(0).path("locations").get(0).path("physicalLocation");
        assertThat(unreadable.path("artifactLocation").path("uri").asText()).isEqualTo(broken.toString());
        assertThat(unreadable.path("region").path("startLine").asInt()).isEqualTo(5);
        // every rule a result names is declared, as code scanning requires
        Set<String> declared = new java.util.HashSet<>();
        sarif.path("runs").get(0).path("tool").path("driver").path("rules").forEach(r -> declared.add(r.path("id").asText()));
        results.forEach(r -> assertThat(declared).contains(r.path("ruleId").asText()));
        // and the schema check is not a formality: a result without its message is refused
        ((com.fasterxml.jackson.databind.node.ObjectNode) results.get(0)).remove("message");
        assertThat(sarifSchema().validate(sarif)).isNotEmpty();
    }

    /**
     * In the two-document b-services.yaml, the refusal points at the SCTP protocol in the first document (the key
     * inside the flow list, line 10) and the warning at the second document's spec (line 17), each with its column.
     */
    @Test
    void sarifRegionsPointAtTheOffendingFieldInEachDocumentOfAFile() throws Exception {
        JsonNode results = new ObjectMapper().readTree(run("sarif").out()).path("runs").get(0).path("results");
        JsonNode denied = null;
        JsonNode warned = null;
        for (JsonNode r : results) {
            if (r.path("ruleId").asText().equals("denied")) {
                denied = r;
            } else if (r.path("ruleId").asText().equals("warning")) {
                warned = r;
            }
        }
        assertThat(denied).isNotNull();
        assertThat(warned).isNotNull();
        JsonNode deniedRegion = denied.path("locations").get(0).path("physicalLocation").path("region");
        assertThat(deniedRegion.path("startLine").asInt()).as(denied.toString()).isEqualTo(10);
        assertThat(deniedRegion.path("startColumn").asInt()).as(denied.toString())
                .isEqualTo("  ports: [{port: 80, ".length() + 1);
        JsonNode warnedRegion = warned.path("locations").get(0).path("physicalLocation").path("region");
        assertThat(warnedRegion.path("startLine").asInt()).as(warned.toString()).isEqualTo(17);
        assertThat(warnedRegion.path("startColumn").asInt()).as(warned.toString()).isEqualTo(1);
    }

    @Test
    void tapHasAPlanAndOneTestPointPerEntry() {
        List<String> lines = run("tap").out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("TAP version 13");
        int planned = Integer.parseInt(lines.get(1).substring(3));
        List<String> points = lines.stream().filter(l -> l.startsWith("ok ") || l.startsWith("not ok ")).toList();
        assertThat(points).hasSize(planned);
        assertThat(points.stream().filter(l -> l.startsWith("not ok "))).hasSize(2);
        assertThat(points.get(0)).isEqualTo("not ok 1 - " + broken + ":5 unreadable");
        assertThat(lines).contains("# Warning: " + lines.stream().filter(l -> l.startsWith("# Warning: "))
                .findFirst().orElseThrow().substring("# Warning: ".length()));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("# 3 accepted, 1 rejected, 1 unreadable");
    }

    @Test
    void jsonListsTheUnreadableInputsWithFileAndLine() throws Exception {
        JsonNode json = new ObjectMapper().readTree(run("json").out());
        assertThat(json.path("unreadable").get(0).path("file").asText()).isEqualTo(broken.toString());
        assertThat(json.path("unreadable").get(0).path("line").asInt()).isEqualTo(5);
        assertThat(json.path("unreadableInputs").asInt()).isEqualTo(1);
        assertThat(json.path("rejected").asInt()).isEqualTo(1);
    }

    @Test
    void summaryLeavesOutTheQuietAcceptedObjectsButCountsThem() {
        CommandRun run = CommandRun.of("validate", tree.toString(), "--summary");
        assertThat(run.out().lines()).hasSize(4); // the warning, its Service, the refusal and the counts
        assertThat(Stream.of(run.out().split("\n"))).noneMatch(l -> l.startsWith("addresspool"));
        assertThat(run.out()).endsWith("3 accepted, 1 rejected, 1 unreadable\n");
        CommandRun junit = CommandRun.of("validate", tree.toString(), "--summary", "-o", "junit");
        assertThat(junit.out()).isEqualTo(run("junit").out());
        assertThat(junit.err()).endsWith("3 accepted, 1 rejected, 1 unreadable (3 files)\n");
    }
}
