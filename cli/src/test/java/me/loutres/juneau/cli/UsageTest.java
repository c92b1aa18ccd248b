package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Help that reads as sentences, and usage errors of one line, for every command of {@code juneau}. */
class UsageTest {

    /** Every command path: "", "demo", ..., "certs generate", "certs inject". */
    static Stream<String> commands() {
        List<String> out = new ArrayList<>();
        collect(Juneau.commandLine(), "", out);
        return out.stream();
    }

    private static void collect(CommandLine cl, String path, List<String> out) {
        out.add(path);
        cl.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().usageMessage().hidden() && sub.getCommandName().equals(name)) {
                collect(sub, (path + " " + name).strip(), out);
            }
        });
    }

    static CommandLine find(CommandLine root, String path) {
        CommandLine cl = root;
        for (String part : path.isEmpty() ? new String[0] : path.split(" ")) {
            cl = cl.getSubcommands().get(part);
        }
        return cl;
    }

    static String help(String path, int width) {
        CommandLine root = Juneau.commandLine();
        setWidth(root, width);
        StringWriter w = new StringWriter();
        find(root, path).usage(new PrintWriter(w, true));
        return w.toString();
    }

    private static void setWidth(CommandLine cl, int width) {
        cl.setUsageHelpWidth(width);
        cl.getSubcommands().values().forEach(s -> setWidth(s, width));
    }

    private static Set<String> words(String text) {
        return Arrays.stream(text.split("\\s+")).filter(s -> !s.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
    }

    @ParameterizedTest(name = "juneau {0} --help")
    @MethodSource("commands")
    void helpFitsEightyColumnsAndNeverCutsAWord(String path) {
        String narrow = help(path, HelpLayout.WIDTH);
        assertThat(narrow.lines()).as(narrow).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(HelpLayout.WIDTH));
        // rendered without any wrapping the same words appear: wrapping only ever broke lines between words
        assertThat(words(narrow)).as(narrow).isEqualTo(words(help(path, 10_000)));
    }

    @Test
    void theCommandListShowsEachCommandsFirstWholeSentence() {
        String top = help("", HelpLayout.WIDTH);
        String list = top.substring(top.indexOf("Commands:") + "Commands:".length());
        // every entry (its wrapped lines joined) is a sentence that ends, not a line cut off
        List<String> entries = new ArrayList<>();
        for (String line : list.lines().filter(l -> !l.isBlank()).toList()) {
            if (line.startsWith("  ") && !line.startsWith("   ")) {
                entries.add(line.strip());
            } else {
                entries.set(entries.size() - 1, entries.get(entries.size() - 1) + " " + line.strip());
            }
        }
        assertThat(entries).hasSize(Juneau.commandLine().getSubcommands().size());
        assertThat(entries).allSatisfy(e -> assertThat(e).matches(".*[.!?)]$"));
        assertThat(entries).anySatisfy(e -> assertThat(e).startsWith("demo").contains("exhaustion and release."));
        assertThat(entries).anySatisfy(e -> assertThat(e).startsWith("validate").endsWith("a simulated cluster."));
    }

    @Test
    void descriptionLinesBrokenByHandAreJoinedIntoParagraphs() {
        assertThat(HelpLayout.paragraphs(new String[] {"one sentence broken", "by hand.", "Another.", "  example line", "last"}))
                .containsExactly("one sentence broken by hand.", "Another.", "  example line", "last");
        assertThat(HelpLayout.wrap("aaa bbb ccc", "> ", 2, 9)).isEqualTo("> aaa bbb\n  ccc\n");
        assertThat(HelpLayout.wrap("averyveryverylongword x", "", 0, 5)).isEqualTo("averyveryverylongword\nx\n");
        assertThat(HelpLayout.wrap("a bcdefgh", "", 4, 8)).isEqualTo("a\n bcdefgh\n");
    }

    @ParameterizedTest(name = "juneau {0} --no-such-flag")
    @MethodSource("commands")
    void aWrongFlagIsOneLinePointingAtHelp(String path) {
        List<String> args = new ArrayList<>(path.isEmpty() ? List.of() : List.of(path.split(" ")));
        args.add("--no-such-flag");
        CommandRun run = CommandRun.of(args.toArray(String[]::new));
        assertThat(run.exit()).isEqualTo(Juneau.EXIT_UNAVAILABLE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).as(run.err()).hasSize(1);
        assertThat(run.err()).startsWith("error: ").contains("(see 'juneau" + (path.isEmpty() ? "" : " " + path) + " --help')");
    }

    @Test
    void anUnknownFlagIsNamedWithItsLikelyMeaning() {
        CommandRun run = CommandRun.of("validate", "-f", "x.yaml", "--cluster-stat");
        assertThat(run.err()).isEqualTo("error: Unknown option: '--cluster-stat'; did you mean --cluster-state? "
                + "(see 'juneau validate --help')\n");
        CommandRun bad = CommandRun.of("plan", "--vips", "ten", "--vips-per-node", "5");
        assertThat(bad.err().lines()).hasSize(1);
        assertThat(bad.err()).contains("--vips", "'ten'", "(see 'juneau plan --help')");
        CommandRun lifetime = CommandRun.of("certs", "generate", "--service", "s", "--namespace", "n", "--out", "x",
                "--lifetime", "99999999999999999999y");
        assertThat(lifetime.exit()).isEqualTo(2);
        assertThat(lifetime.err()).isEqualTo("error: Invalid value for option '--lifetime': lifetime '99999999999999999999y' "
                + "is not understood; use e.g. 2160h, 90d, 1y, 1h30m or P90D (see 'juneau certs generate --help')\n");
    }

    @Test
    void anUnknownCommandIsNamedAsOne() {
        CommandRun run = CommandRun.of("bogus");
        assertThat(run.exit()).isEqualTo(Juneau.EXIT_UNAVAILABLE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error: unknown command \"bogus\" (see 'juneau --help')\n");
        // a near miss still gets picocli's suggestion
        assertThat(CommandRun.of("validat").err()).startsWith("error: unknown command \"validat\"; did you mean validate?");
    }

    @Test
    void aFilenameOptionWithoutItsPathSaysHowToGiveSeveral() {
        CommandRun run = CommandRun.of("validate", "-f");
        assertThat(run.exit()).isEqualTo(Juneau.EXIT_UNAVAILABLE);
        assertThat(run.err()).isEqualTo("error: -f takes one path; repeat -f or list the paths after the options "
                + "(see 'juneau validate --help')\n");
        assertThat(CommandRun.of("validate", "-f", "-o", "json").err()).startsWith("error: -f takes one path;");
    }
}
