package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's "What gets created" table names every object both installs create (rendered with kubectl
 * kustomize), so a reader learns of a DaemonSet, a CRD or a policy before `kubectl apply` makes it.
 */
class ReadmeInstallTableTest {
    static String table() throws IOException {
        String readme = Files.readString(LinksTest.ROOT.resolve("README.md"));
        int start = readme.indexOf("What gets created:");
        assertThat(start).as("README.md has a 'What gets created:' table").isNotNegative();
        int end = readme.indexOf("\n\n", readme.indexOf("| object |", start));
        return readme.substring(start, end);
    }

    @Test
    void everyObjectOfBothInstallsIsNamedInTheTable() throws IOException {
        String table = table();
        List<String> missing = new ArrayList<>();
        for (Install install : List.of(Install.certManager(), Install.selfSigned())) {
            for (JsonNode o : install.objects()) {
                String kind = o.path("kind").asText();
                String name = kind.equals("CustomResourceDefinition")
                        ? o.path("spec").path("names").path("kind").asText()
                        : o.path("metadata").path("name").asText();
                if (!table.contains(name)) {
                    missing.add(kind + " " + name + " (" + install.name() + ")");
                }
                // CRDs are counted as such; Role, ClusterRole and their bindings are one row per component
                String kindWord = kind.equals("CustomResourceDefinition") ? "CRD"
                        : kind.replaceAll("^Cluster", "").replaceAll("Binding$", "");
                if (!table.contains(kindWord)) {
                    missing.add("the kind " + kind);
                }
            }
        }
        assertThat(missing).as("objects the README's 'What gets created' table does not name").isEmpty();
    }
}
