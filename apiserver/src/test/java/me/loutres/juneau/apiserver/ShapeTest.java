package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The local API server stays readable (docs/design.md): the HTTP surface is split by role, no class of it over 300
 * lines, and no method of the module over 60 lines. Counted from the sources, braces matched from a method's
 * declaration line.
 */
class ShapeTest {
    private static final Path SOURCES = Path.of("src/main/java/me/loutres/juneau/apiserver");
    private static final Pattern METHOD = Pattern.compile(
            "^\\s*(?:(?:public|private|protected|static|final|synchronized|default)\\s+)*(?:<[^>]+>\\s+)?"
                    + "[\\w.<>\\[\\], ?]+\\s+\\w+\\([^;]*\\)\\s*(?:throws [\\w., ]+)?\\{\\s*$");
    private static final List<String> HTTP_SURFACE = List.of("ApiHandler", "ApiCall", "Responses", "ResourcePath",
            "ListQuery", "ListHandler", "WatchStream", "WatchHandler");

    @Test
    void theHttpSurfaceIsSplitByRoleIntoSmallClasses() throws IOException {
        for (String name : HTTP_SURFACE) {
            assertThat(Files.readAllLines(SOURCES.resolve(name + ".java"))).as(name).hasSizeLessThanOrEqualTo(300);
        }
    }

    @Test
    void noMethodIsLongerThanSixtyLines() throws IOException {
        List<String> longOnes = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                longOnes.addAll(longMethods(f, Files.readAllLines(f)));
            }
        }
        assertThat(longOnes).isEmpty();
    }

    @Test
    void theCounterSeesALongMethod() {
        List<String> lines = new ArrayList<>();
        lines.add("    private static int big(int a) {");
        for (int i = 0; i < 70; i++) {
            lines.add("        a++;");
        }
        lines.add("        return a;");
        lines.add("    }");
        assertThat(longMethods(Path.of("Fixture.java"), lines)).singleElement().asString().contains("big", "(73 lines)");
    }

    private static List<String> longMethods(Path file, List<String> lines) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!METHOD.matcher(line).matches() || line.matches(".*\\b(class|record|interface|enum)\\b.*")
                    || line.contains(" new ") || line.trim().startsWith("return ") || line.contains(" = ")) {
                continue;
            }
            int depth = 0;
            int j = i;
            for (; j < lines.size(); j++) {
                depth += count(lines.get(j), '{') - count(lines.get(j), '}');
                if (depth <= 0 && j > i) {
                    break;
                }
            }
            int length = j - i + 1;
            if (length > 60) {
                found.add(file.getFileName() + ": " + line.trim() + " (" + length + " lines)");
            }
        }
        return found;
    }

    private static int count(String s, char c) {
        return (int) s.chars().filter(x -> x == c).count();
    }
}
