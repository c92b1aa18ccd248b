package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The webhook's and the controller's heaps, memory limits and requests follow from the measured figures by the
 * formula of docs/install.md, "Sizing for large clusters" (issue 38, must show 5): its table states each process's
 * fixed live heap, live heap per Service and what it holds beside the heap, measured by benchmarks/scale/run.sh, and
 * the cluster size the install is shipped for; the heap, limit and request it states are the formula's, and the
 * manifests, the images' MaxRAMPercentage and bin/juneau (DockerfilesTest holds its -Xmx to the image's heap) ship
 * exactly those.
 */
class SizingTest {
    /** A row: process | fixed live heap | live heap per Service | beside the heap | Services | heap | % | limit | request. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| (webhook|controller) \\| (\\d+) MiB \\| ([\\d,]+) B \\| "
            + "(\\d+) MiB \\| ([\\d,]+) \\| (\\d+) MiB \\| (\\d+) % \\| (\\d+)Mi \\| (\\d+)Mi \\|$");

    private static String section() throws IOException {
        String doc = Files.readString(DockerfilesTest.ROOT.resolve("docs/install.md"));
        int at = doc.indexOf("### Sizing for large clusters");
        assertThat(at).as("docs/install.md has the section").isNotNegative();
        int end = doc.indexOf("\n#", at + 4);
        return doc.substring(at, end < 0 ? doc.length() : end);
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }

    /** Rounds MiB up to a multiple of 32 Mi, as the manifests' quantities are. */
    static long upTo32(double mib) {
        return (long) Math.ceil(mib / 32) * 32;
    }

    @Test
    void theShippedHeapsLimitsAndRequestsAreTheFormulasForTheMeasuredFigures() throws IOException {
        String section = section();
        assertThat(section).contains("heap = fixed + 2 × per Service × Services")
                .contains("limit = the larger of heap × 100 / MaxRAMPercentage and heap + beside the heap")
                .contains("request = heap + beside the heap");
        Matcher row = ROW.matcher(section);
        int rows = 0;
        while (row.find()) {
            rows++;
            String part = row.group(1);
            long fixed = number(row.group(2));
            long perService = number(row.group(3));
            long beside = number(row.group(4));
            long services = number(row.group(5));
            long heap = number(row.group(6));
            long percent = number(row.group(7));
            long limit = number(row.group(8));
            long request = number(row.group(9));

            // the formula, step by step: the serial collector keeps the live heap at most half of the heap
            double needed = fixed + 2.0 * perService * services / (1024 * 1024);
            assertThat(limit).as("%s: limit = max(heap × 100 / MaxRAMPercentage, heap + beside), up to 32 Mi", part)
                    .isEqualTo(upTo32(Math.max(needed * 100 / percent, needed + beside)));
            assertThat(heap).as("%s: the heap the image gets from that limit", part).isEqualTo(limit * percent / 100)
                    .isGreaterThanOrEqualTo((long) Math.ceil(needed));
            assertThat(request).as("%s: request = heap + beside the heap, up to 32 Mi, at most the limit", part)
                    .isEqualTo(Math.min(limit, upTo32(heap + beside)));

            String entrypoint = DockerfilesTest.dockerfile(part).lines().filter(l -> l.startsWith("ENTRYPOINT"))
                    .findFirst().orElseThrow();
            assertThat(entrypoint).as("%s's image sizes its heap so", part)
                    .contains("-XX:MaxRAMPercentage=" + percent + "\"");
            for (Install i : Install.both()) {
                List<JsonNode> pods = DockerfilesTest.pods(i, part);
                assertThat(pods).as("%s's pod in %s", part, i).isNotEmpty();
                for (JsonNode pod : pods) {
                    JsonNode resources = pod.path("containers").get(0).path("resources");
                    assertThat(resources.path("limits").path("memory").asText()).as("%s limit in %s", part, i)
                            .isEqualTo(limit + "Mi");
                    assertThat(resources.path("requests").path("memory").asText()).as("%s request in %s", part, i)
                            .isEqualTo(request + "Mi");
                }
            }
        }
        assertThat(rows).as("a row for the webhook and one for the controller").isEqualTo(2);
    }

    @Test
    void theRoundingIsUpToTheNext32Mi() {
        assertThat(upTo32(256)).isEqualTo(256);
        assertThat(upTo32(256.1)).isEqualTo(288);
        assertThat(upTo32(1)).isEqualTo(32);
    }
}
