package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runbooks an operator looks for before production each have a section in docs/operations.md, and the README
 * links to each section (LinksTest checks that every such link resolves to a heading).
 */
class RunbooksTest {
    static final List<String> RUNBOOKS = List.of("upgrade", "uninstall", "the-webhook-is-down", "stuck-finalizers",
            "renumbering-a-pool", "finding-the-service-and-pod-cidrs-for---reserved-cidr");

    @Test
    void theReadmeLinksToEveryRunbookSection() throws IOException {
        String readme = Files.readString(LinksTest.ROOT.resolve("README.md"));
        var anchors = LinksTest.anchors(LinksTest.ROOT.resolve("docs/operations.md"));
        for (String runbook : RUNBOOKS) {
            assertThat(anchors).as("docs/operations.md has a section #%s", runbook).contains(runbook);
            assertThat(readme).as("README links to the runbook %s", runbook)
                    .contains("(docs/operations.md#" + runbook + ")");
        }
    }

    @Test
    void eachRunbookSaysWhatToRunNotOnlyWhatHappens() throws IOException {
        String doc = Files.readString(LinksTest.ROOT.resolve("docs/operations.md"));
        int runbooks = 0;
        for (String section : doc.split("\n## ")) {
            String heading = section.lines().findFirst().orElse("");
            // the runbooks' sections; the page also describes how the controller runs, which is no runbook
            if (RUNBOOKS.contains(slug(heading))) {
                runbooks++;
                assertThat(section).as("runbook '%s' gives the commands", heading).containsAnyOf("kubectl ", "bin/juneau");
            }
        }
        assertThat(runbooks).isEqualTo(RUNBOOKS.size());
    }

    /** GitHub's anchor of a heading, as LinksTest computes it. */
    static String slug(String heading) {
        return heading.replaceAll("`", "").toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }
}
