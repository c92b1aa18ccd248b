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
        for (String section : doc.split("\n## ")) {
            if (section.startsWith("# ")) {
                continue;
            }
            assertThat(section).as("runbook '%s' gives the commands", section.lines().findFirst().orElse(""))
                    .containsAnyOf("kubectl ", "bin/juneau");
        }
    }
}
