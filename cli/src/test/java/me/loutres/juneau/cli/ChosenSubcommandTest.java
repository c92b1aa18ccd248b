package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code juneau NAME ...} builds only the subcommand it runs (a server's start-up does not reflect over the seven
 * others), with the same help and the same one-line usage errors as the whole command tree; anything else gets the
 * whole tree, so the top-level help lists every command and a misspelt one still gets its suggestion.
 */
class ChosenSubcommandTest {

    static Stream<String> subcommands() {
        return Juneau.commandLine().getSubcommands().keySet().stream();
    }

    @ParameterizedTest
    @MethodSource("subcommands")
    void aNamedSubcommandIsBuiltAloneWithTheSameHelpAndErrors(String name) {
        CommandLine chosen = Juneau.commandLine(name);
        assertThat(chosen.getSubcommands()).containsOnlyKeys(name);
        CommandLine whole = Juneau.commandLine();
        assertThat(usage(chosen.getSubcommands().get(name))).isEqualTo(usage(whole.getSubcommands().get(name)));
        assertThat(errorOf(chosen, name, "--no-such-option")).isEqualTo(errorOf(whole, name, "--no-such-option"))
                .contains("juneau " + name + " --help");
    }

    @Test
    void anythingElseGetsEveryCommand() {
        int all = Juneau.SUBCOMMANDS.size();
        assertThat(Juneau.commandLine(null).getSubcommands()).hasSize(all);
        assertThat(Juneau.commandLine("--help").getSubcommands()).hasSize(all);
        assertThat(Juneau.commandLine("webhok").getSubcommands()).hasSize(all);
        assertThat(errorOf(Juneau.commandLine("webhok"), "webhok")).contains("did you mean").contains("webhook");
    }

    private static String usage(CommandLine cl) {
        StringWriter w = new StringWriter();
        cl.usage(new PrintWriter(w, true));
        return w.toString();
    }

    private static String errorOf(CommandLine cl, String... args) {
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        cl.getSubcommands().values().forEach(s -> s.setErr(new PrintWriter(err, true)));
        int exit = cl.execute(args);
        assertThat(exit).isEqualTo(Juneau.EXIT_UNAVAILABLE);
        return err.toString();
    }
}
