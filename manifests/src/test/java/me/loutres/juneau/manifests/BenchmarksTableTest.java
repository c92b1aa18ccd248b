package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * BENCHMARKS.md opens with the one current table (issue 44): each row a figure with its command, date, machine and a
 * link to the section of docs/benchmarks-history.md it was copied from; and every figure a README sentence quotes
 * next to a link to BENCHMARKS.md is in that table, so the README cannot drift back to a past machine's numbers.
 */
class BenchmarksTableTest {
    static final Path BENCHMARKS = LinksTest.ROOT.resolve("BENCHMARKS.md");
    static final Path HISTORY = LinksTest.ROOT.resolve("docs/benchmarks-history.md");
    private static final Pattern HISTORY_LINK = Pattern.compile("\\]\\(docs/benchmarks-history\\.md#([^)\\s]+)\\)");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b");
    private static final String NUMBER = "\\d[\\d,]*(?:\\.\\d+)?";
    /** A measured figure: a number or a range of two, and a unit of time, size, rate or share. */
    private static final Pattern FIGURE = Pattern.compile(
            "(?<![\\d.,–-])(" + NUMBER + "(?:–" + NUMBER + ")?) ?(req/s|ms|µs|ns|MiB|MB|GB|min|s|%)(?![\\p{L}\\d/])");

    /** The table's lines: from its header, which must be the first thing after the title, to the first blank line. */
    static List<String> tableLines() throws IOException {
        List<String> lines = Files.readAllLines(BENCHMARKS);
        assertThat(lines.get(0)).isEqualTo("# Benchmarks");
        int header = 1;
        while (lines.get(header).isBlank()) {
            header++;
        }
        assertThat(lines.get(header)).as("BENCHMARKS.md opens with the current table, before any other text")
                .startsWith("| what | figure");
        List<String> table = new ArrayList<>();
        for (int i = header; i < lines.size() && !lines.get(i).isBlank(); i++) {
            table.add(lines.get(i));
        }
        return table;
    }

    /** The cells of a table row; a {@code |} inside a code span is part of the cell. */
    static List<String> cells(String row) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (int i = 1; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '`') {
                code = !code;
            }
            if (c == '|' && !code) {
                out.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        return out;
    }

    @Test
    void everyRowHasItsFigureCommandDateMachineAndTheHistorySectionItCameFrom() throws IOException {
        List<String> table = tableLines();
        assertThat(cells(table.get(0))).containsExactly("what", "figure (against the baseline of the same run)", "command",
                "measured (UTC)", "machine", "history");
        Set<String> sections = LinksTest.anchors(HISTORY);
        List<String> rows = table.subList(2, table.size());
        assertThat(rows).hasSizeGreaterThan(20);
        List<String> problems = new ArrayList<>();
        for (String row : rows) {
            List<String> c = cells(row);
            if (c.size() != 6) {
                problems.add(row + ": " + c.size() + " cells, not 6");
                continue;
            }
            String what = c.get(0);
            if (c.get(3).equals("—")) {
                // a kind of figure the history does not hold: the row says so and where it is measured instead
                if (!c.get(1).contains("the history has no figure") || !c.get(1).contains("](docs/")) {
                    problems.add(what + ": no date, so the figure must say the history has none and link where it is");
                }
                continue;
            }
            if (!FIGURE.matcher(c.get(1)).find()) {
                problems.add(what + ": no measured figure");
            }
            if (!c.get(2).startsWith("`")) {
                problems.add(what + ": the command is not given as a command");
            }
            if (!DATE.matcher(c.get(3)).find()) {
                problems.add(what + ": no date");
            }
            if (!c.get(4).contains("cores")) {
                problems.add(what + ": the machine does not say its cores");
            }
            Matcher link = HISTORY_LINK.matcher(c.get(5));
            int links = 0;
            while (link.find()) {
                links++;
                if (!sections.contains(link.group(1))) {
                    problems.add(what + ": docs/benchmarks-history.md has no section #" + link.group(1));
                }
            }
            if (links == 0) {
                problems.add(what + ": no link to its section of docs/benchmarks-history.md");
            }
        }
        assertThat(problems).isEmpty();
        String text = Files.readString(BENCHMARKS);
        assertThat(text).contains("## How to run", "History: [docs/benchmarks-history.md](docs/benchmarks-history.md)");
    }

    /** The figures of a sentence that the table does not hold. */
    static List<String> figuresNotIn(String table, String sentence) {
        List<String> missing = new ArrayList<>();
        Matcher m = FIGURE.matcher(sentence);
        while (m.find()) {
            Pattern same = Pattern.compile("(?<![\\d.,–-])" + Pattern.quote(m.group(1)) + " ?" + Pattern.quote(m.group(2))
                    + "(?![\\p{L}\\d/])");
            if (!same.matcher(table).find()) {
                missing.add(m.group());
            }
        }
        return missing;
    }

    /** The README's sentences that cite BENCHMARKS.md, outside code. */
    static List<String> sentencesCitingTheTable(String markdown) {
        List<String> out = new ArrayList<>();
        for (String paragraph : LinksTest.prose(markdown).split("\n\\s*\n")) {
            for (String sentence : paragraph.split("(?<=\\.)\\s+")) {
                if (sentence.contains("](BENCHMARKS.md")) {
                    out.add(sentence.replace('\n', ' '));
                }
            }
        }
        return out;
    }

    @Test
    void everyFigureTheReadmeQuotesBesideALinkToTheTableIsTheTables() throws IOException {
        String table = String.join("\n", tableLines());
        List<String> sentences = sentencesCitingTheTable(Files.readString(LinksTest.ROOT.resolve("README.md")));
        assertThat(sentences).hasSizeGreaterThanOrEqualTo(8);
        List<String> problems = new ArrayList<>();
        int figures = 0;
        for (String sentence : sentences) {
            figures += (int) FIGURE.matcher(sentence).results().count();
            for (String figure : figuresNotIn(table, sentence)) {
                problems.add(figure + " in: " + sentence);
            }
        }
        assertThat(problems).as("README figures that are not the table's (take them from BENCHMARKS.md)").isEmpty();
        assertThat(figures).isGreaterThan(20);
    }

    @Test
    void theCheckerFindsAFigureOfAPastMachine() throws IOException {
        String table = String.join("\n", tableLines());
        String readme = "Fast. It moved in **1,007 ms** (p50; p99 219 ms, 83 ms now) ([BENCHMARKS.md](BENCHMARKS.md)). "
                + "Took 9 ms elsewhere.";
        List<String> sentences = sentencesCitingTheTable(readme);
        assertThat(sentences).hasSize(1);
        assertThat(figuresNotIn(table, sentences.get(0))).containsExactly("1,007 ms", "219 ms");
        assertThat(figuresNotIn("a p50 of 7.4–9.2 s", "7.4–9.2 s and 4–9.2 s and 9.2 s")).containsExactly("4–9.2 s", "9.2 s");
        assertThat(cells("| a | `x | y` | b |")).containsExactly("a", "`x | y`", "b");
    }
}
