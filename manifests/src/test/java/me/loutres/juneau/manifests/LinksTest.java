package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every link of the Markdown the repository carries points at a file (and heading) inside it; none leaves it. */
class LinksTest {
    static final Path ROOT = DocsGenerated.ROOT.toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HTML_LINK = Pattern.compile("(?:href|src)=\"([^\"]+)\"");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    static List<Path> markdown() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !ROOT.relativize(p).toString().contains("target/") && !ROOT.relativize(p).startsWith(".git"))
                    .filter(p -> !ROOT.relativize(p).toString().contains("src/test/resources"))
                    .sorted().forEach(out::add);
        }
        return out;
    }

    /** The text outside fenced code blocks and inline code, where a link is a link. */
    static String prose(String text) {
        StringBuilder sb = new StringBuilder();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                sb.append('\n');
                continue;
            }
            sb.append(fenced ? "" : line.replaceAll("`[^`]*`", "``")).append('\n');
        }
        return sb.toString();
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
    static Set<String> anchors(Path file) throws IOException {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(file)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            }
            Matcher m = HEADING.matcher(line);
            if (!fenced && m.matches()) {
                String slug = m.group(1).replaceAll("`", "").toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum);
                out.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return out;
    }

    @Test
    void everyRelativeLinkResolvesAndNoneLeavesTheRepository() throws IOException {
        List<Path> files = markdown();
        assertThat(files).extracting(f -> ROOT.relativize(f).toString())
                .contains("README.md", "docs/api-reference.md", "docs/admission.md", "docs/phases-and-conditions.md",
                        "docs/troubleshooting.md");
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path f : files) {
            String text = prose(Files.readString(f));
            List<String> targets = new ArrayList<>();
            for (Pattern p : List.of(LINK, HTML_LINK)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    targets.add(m.group(1));
                }
            }
            for (String target : targets) {
                checked++;
                String problem = problem(f, target);
                if (problem != null) {
                    broken.add(ROOT.relativize(f) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(broken).isEmpty();
        assertThat(checked).isGreaterThan(20);
    }

    static String problem(Path from, String target) throws IOException {
        if (target.matches("(?i)^[a-z][a-z0-9+.-]*:.*") || target.startsWith("//")) {
            return "leaves the repository: link a file of the repository instead";
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor != null) {
            if (!resolved.toString().endsWith(".md")) {
                return "an anchor into a file that is not Markdown";
            }
            if (!anchors(resolved).contains(anchor)) {
                return "no heading with anchor #" + anchor + " in " + ROOT.relativize(resolved);
            }
        }
        return null;
    }

    @Test
    void theCheckerCatchesWhatItMust() throws IOException {
        Path readme = ROOT.resolve("README.md");
        assertThat(problem(readme, "../shared/SPEC.md")).isEqualTo("points outside the repository");
        assertThat(problem(readme, "https://example.com/x")).startsWith("leaves the repository");
        assertThat(problem(readme, "docs/nowhere.md")).isEqualTo("no such file");
        assertThat(problem(readme, "#no-such-heading")).startsWith("no heading");
        assertThat(problem(readme, "docs/admission.md")).isNull();
        assertThat(anchors(readme)).contains("quick-start", "try-it-with-kubectl-binjuneau-up");
        assertThat(prose("see `[x](nowhere)` and\n```\n[y](nowhere)\n```\n[z](here)")).doesNotContain("nowhere").contains("[z](here)");
    }
}
