package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import org.junit.jupiter.api.Test;

/** The demo plays the files of manifests/examples/demo, byte for byte, and every file it names is there. */
class DemoManifestsTest {
    static final Path DIR = Path.of("..").resolve(DemoManifests.DIRECTORY);

    static List<String> files() throws IOException {
        try (Stream<Path> walk = Files.walk(DIR)) {
            return walk.filter(p -> p.toString().endsWith(".yaml")).map(p -> DIR.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void thePackagedFilesAreTheRepositorysFiles() throws IOException {
        List<String> files = files();
        assertThat(files).hasSizeGreaterThanOrEqualTo(18);
        for (String f : files) {
            try (InputStream in = DemoManifests.class.getResourceAsStream("/me/loutres/juneau/cli/demo/manifests/" + f)) {
                assertThat(in).as("%s is packaged", f).isNotNull();
                assertThat(new String(in.readAllBytes())).isEqualTo(Files.readString(DIR.resolve(f)));
            }
            assertThat(DemoManifests.load(f, HasMetadata.class).getMetadata().getName()).isNotBlank();
        }
    }

    @Test
    void everyFileTheScenarioNamesExists() throws IOException {
        String source = Files.readString(Path.of("src/main/java/me/loutres/juneau/cli/demo/DemoScenario.java"));
        Matcher m = Pattern.compile("\"([a-z0-9-]+\\.yaml)\"").matcher(source);
        List<String> named = new ArrayList<>();
        while (m.find()) {
            named.add(m.group(1));
        }
        assertThat(named).hasSizeGreaterThanOrEqualTo(15);
        List<String> names = files().stream().map(f -> Path.of(f).getFileName().toString()).toList();
        assertThat(names).containsAll(named);
        // and the demo refuses what is filed under refused/, nothing else
        assertThat(files().stream().filter(f -> f.startsWith(DemoScenario.REFUSED))).hasSize(7);
    }

    @Test
    void aMissingFileIsAClearError() {
        assertThatThrownBy(() -> DemoManifests.load("nowhere.yaml", AddressPool.class))
                .hasMessageContaining("manifests/examples/demo/nowhere.yaml");
    }
}
