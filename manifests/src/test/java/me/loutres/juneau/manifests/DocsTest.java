package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;

/**
 * docs/ says what the code does: the API reference has exactly the fields of the generated CRDs, the admission page
 * every message the rules give in the corpus, the phases page every phase, condition, reason and event, and no
 * shipped file cites a document the repository does not carry. Refresh the generated parts with
 * {@link DocsGenerated#UPDATE_COMMAND}.
 */
class DocsTest {

    @Test
    void generatedPartsOfTheDocsAreCurrent() throws IOException {
        boolean update = Boolean.getBoolean("juneau.updateDocs");
        for (Map.Entry<Path, Set<String>> doc : DocsGenerated.requiredKeys().entrySet()) {
            Path file = doc.getKey();
            assertThat(file).exists();
            String text = Files.readString(file);
            Set<String> found = new LinkedHashSet<>();
            StringBuilder rewritten = new StringBuilder();
            Matcher m = DocsGenerated.BLOCK.matcher(text);
            int last = 0;
            List<String> stale = new ArrayList<>();
            while (m.find()) {
                String key = m.group(1);
                assertThat(found.add(key)).as("%s has two blocks %s", file, key).isTrue();
                String expected = DocsGenerated.content(key);
                if (!expected.equals(m.group(2))) {
                    stale.add(key);
                }
                rewritten.append(text, last, m.start(2)).append(expected);
                last = m.end(2);
            }
            rewritten.append(text.substring(last));
            assertThat(found).as("generated blocks of %s: a new CRD or corpus case needs a <!-- generated: KEY --> block "
                    + "with prose around it; a removed one must go", file).containsExactlyInAnyOrderElementsOf(doc.getValue());
            if (update) {
                Files.writeString(file, rewritten.toString());
            } else {
                assertThat(stale).as("%s: these generated blocks differ from the CRDs / corpus / rules they come from; "
                        + "refresh with %s", file, DocsGenerated.UPDATE_COMMAND).isEmpty();
            }
        }
    }

    @Test
    void theApiReferenceTableNamesEveryFieldOfTheSchema() {
        // a guard on the generator itself: one row per schema property, at any depth
        String table = DocsGenerated.crdTable("serviceloadbalancers.juneau.loutres.me.yaml");
        assertThat(table).contains("| `spec.serviceRef.name` |", "| `status.ports[].targetPort` | integer |",
                "| `status.backendSummary.localReadyNodes` |", "| `status.conditions[].reason` |", "short name `slb`");
        String pool = DocsGenerated.crdTable("addresspools.juneau.loutres.me.yaml");
        assertThat(pool).contains("| `spec.advertiseMode` | string: `arp` or `bgp` | yes |");
        long rows = pool.lines().filter(l -> l.startsWith("| `")).count();
        JsonNode schema = Install.documents(Crds.COMMITTED.resolve("addresspools.juneau.loutres.me.yaml")).get(0)
                .path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
        assertThat(rows).isEqualTo(countProperties(schema)).isGreaterThan(10);
    }

    private static long countProperties(JsonNode schema) {
        long n = 0;
        for (JsonNode child : (Iterable<JsonNode>) () -> schema.path("properties").elements()) {
            n += 1 + countProperties(child);
        }
        return n + (schema.has("items") ? countProperties(schema.path("items")) : 0);
    }

    @Test
    void thePhasesPageNamesEveryPhaseConditionReasonAndEvent() throws Exception {
        String page = Files.readString(DocsGenerated.DOCS.resolve("phases-and-conditions.md"));
        List<String> missing = new ArrayList<>();
        for (Field f : JuneauConstants.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class
                    && f.getName().matches("(PHASE|CONDITION|REASON|EVENT)_.*")) {
                String value = (String) f.get(null);
                if (!page.contains("`" + value + "`")) {
                    missing.add(f.getName() + " = " + value);
                }
            }
        }
        assertThat(missing).as("docs/phases-and-conditions.md must explain every one of these").isEmpty();
    }

    @Test
    void noShippedFileCitesADocumentTheRepositoryDoesNotCarry() throws IOException {
        List<Path> shipped = new ArrayList<>(List.of(DocsGenerated.ROOT.resolve("README.md")));
        try (Stream<Path> files = Stream.concat(Files.walk(DocsGenerated.DOCS), Files.walk(Path.of(".")))) {
            files.filter(Files::isRegularFile)
                    .filter(p -> !p.startsWith("./src") && !p.startsWith("./target"))
                    .filter(p -> p.toString().endsWith(".md") || p.toString().endsWith(".yaml"))
                    .forEach(shipped::add);
        }
        for (Path f : shipped) {
            String text = Files.readString(f);
            assertThat(text).as("%s cites the specification, which a clone does not have; say it, or link docs/", f)
                    .doesNotContain("SPEC §").doesNotContain("SPEC.md").doesNotContain("../shared");
        }
    }
}
