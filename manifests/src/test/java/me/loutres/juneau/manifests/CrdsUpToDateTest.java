package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The committed CRDs are exactly what the Java types generate. Refresh after changing the types with
 * {@code mvn -B -pl manifests -am verify -Djuneau.updateCrds=true}.
 */
class CrdsUpToDateTest {
    @Test
    void committedCrdsEqualTheOnesGeneratedFromTheJavaTypes() throws IOException {
        Map<String, String> expected = Crds.expected();
        if (Boolean.getBoolean("juneau.updateCrds")) {
            Files.createDirectories(Crds.COMMITTED);
            for (Map.Entry<String, String> e : expected.entrySet()) {
                Files.writeString(Crds.COMMITTED.resolve(e.getKey()), e.getValue());
            }
        }
        List<String> committed;
        try (Stream<Path> files = Files.list(Crds.COMMITTED)) {
            committed = files.map(p -> p.getFileName().toString()).filter(f -> !f.equals("kustomization.yaml")).sorted().toList();
        }
        assertThat(committed)
                .as("CRD files in %s; refresh them with: %s", Crds.COMMITTED, Crds.REFRESH_COMMAND)
                .containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(Files.readString(Crds.COMMITTED.resolve(e.getKey())))
                    .as("%s is stale or was edited by hand; the CRDs come from the Java types in shared-model."
                            + " Refresh with: %s", Crds.COMMITTED.resolve(e.getKey()), Crds.REFRESH_COMMAND)
                    .isEqualTo(e.getValue());
        }
    }

    @Test
    void printerColumnsFollowTheDeclarationOrderOfTheSpec() throws IOException {
        String slb = Crds.expected().get("serviceloadbalancers.juneau.loutres.me.yaml");
        List<String> names = slb.lines().filter(l -> l.trim().startsWith("name: ") && !l.contains("v1alpha1"))
                .map(l -> l.trim().substring("name: ".length()).replace("\"", "")).toList();
        assertThat(names).startsWith("serviceloadbalancers.juneau.loutres.me", "Service", "ExternalNetwork", "VIP", "Phase",
                "Announced", "Nodes", "ARPNode", "Age");
    }

    @Test
    void crdsKustomizationListsEveryCrd() throws IOException {
        String k = Files.readString(Crds.COMMITTED.resolve("kustomization.yaml"));
        for (String f : Crds.expected().keySet()) {
            assertThat(k).as("base/crds/kustomization.yaml must list %s", f).contains("- " + f);
        }
    }
}
