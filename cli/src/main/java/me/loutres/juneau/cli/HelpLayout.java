package me.loutres.juneau.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How every {@code juneau} command prints its help and its usage errors. picocli shows only the first element of a
 * description array in a command list and prints hand-broken description lines as separate lines, so summaries were
 * cut mid-sentence; here descriptions are joined into paragraphs and wrapped at word boundaries, and the command list
 * shows each subcommand's first whole sentence. A usage error is one line that points at {@code --help}, not the whole
 * usage.
 */
public final class HelpLayout {
    /** Width of every help text, as picocli's default: fits an 80-column terminal. */
    public static final int WIDTH = 80;
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z(`'\"])");

    private HelpLayout() {
    }

    /** Applies the layout and the one-line usage errors to a command and all its subcommands. */
    public static CommandLine install(CommandLine cl, int exitCode) {
        apply(cl);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine failed = ex.getCommandLine();
            PrintWriter err = failed.getErr();
            err.println(usageError(ex, failed.getCommandSpec()));
            err.flush();
            return exitCode;
        });
        return cl;
    }

    /** A command that words some of its usage errors itself, saying what to do instead of what picocli found. */
    public interface UsageHint {
        /** The one-line message for the error, or null for picocli's own. */
        String hint(CommandLine.ParameterException e);
    }

    /** {@code error: <what picocli found> (see 'juneau <command> --help')}, on one line. */
    static String usageError(CommandLine.ParameterException ex, CommandSpec spec) {
        String message = ex.getMessage() == null ? "bad usage" : ex.getMessage().strip().split("\\R", 2)[0];
        if (spec.userObject() instanceof UsageHint h && h.hint(ex) != null) {
            message = h.hint(ex);
        } else if (ex instanceof UnmatchedArgumentException u && !spec.subcommands().isEmpty()
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")
                && spec.positionalParameters().isEmpty()) {
            // picocli says "Unmatched argument at index 0: 'bogus'" for a word where a command was expected
            message = "unknown command \"" + u.getUnmatched().get(0) + "\"";
        }
        StringBuilder sb = new StringBuilder("error: ").append(message);
        if (ex instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
            sb.append("; did you mean ").append(String.join(" or ", u.getSuggestions())).append('?');
        }
        return sb.append(" (see '").append(spec.qualifiedName()).append(" --help')").toString();
    }

    private static void apply(CommandLine cl) {
        cl.setUsageHelpWidth(WIDTH);
        Map<String, CommandLine.IHelpSectionRenderer> sections = cl.getHelpSectionMap();
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION, HelpLayout::description);
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpLayout::commandList);
        sections.put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpLayout::optionList);
        for (CommandLine sub : cl.getSubcommands().values()) {
            apply(sub);
        }
    }

    private static String description(Help help) {
        StringBuilder sb = new StringBuilder();
        for (String paragraph : paragraphs(help.commandSpec().usageMessage().description())) {
            int lead = paragraph.length() - paragraph.stripLeading().length();
            sb.append(wrap(paragraph.strip(), " ".repeat(lead), lead == 0 ? 0 : lead + 2,
                    help.commandSpec().usageMessage().width()));
        }
        return sb.toString();
    }

    private static String commandList(Help help) {
        Map<String, Help> subs = help.subcommands();
        if (subs.isEmpty()) {
            return "";
        }
        int nameWidth = subs.keySet().stream().mapToInt(String::length).max().orElse(0);
        int column = 2 + nameWidth + 2;
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Help> e : subs.entrySet()) {
            String name = e.getKey();
            String lead = "  " + name + " ".repeat(column - 2 - name.length());
            sb.append(wrap(summary(e.getValue().commandSpec()), lead, column, help.commandSpec().usageMessage().width()));
        }
        return sb.toString();
    }

    /** Longest option label that still has its description on the same line. */
    private static final int LABEL_COLUMN = 27;

    /**
     * The options as picocli lists them (sorted by shortest name unless the command says otherwise), but with the
     * descriptions wrapped at spaces only: picocli's own wrapping splits at punctuation ({@code *.} / {@code yaml}).
     */
    private static String optionList(Help help) {
        CommandSpec spec = help.commandSpec();
        List<CommandLine.Model.OptionSpec> options = new ArrayList<>(spec.options().stream().filter(o -> !o.hidden()).toList());
        if (spec.usageMessage().sortOptions()) {
            options.sort(java.util.Comparator.comparing(o -> o.shortestName().replaceFirst("^-+", "").toLowerCase(java.util.Locale.ROOT)));
        }
        int width = spec.usageMessage().width();
        StringBuilder sb = new StringBuilder();
        for (CommandLine.Model.OptionSpec o : options) {
            String label = label(o);
            String text = String.join(" ", paragraphs(o.description()));
            String lead = "  " + label;
            if (lead.length() + 2 > LABEL_COLUMN) {
                sb.append(lead).append('\n');
                lead = "";
            }
            sb.append(wrap(text, lead + " ".repeat(Math.max(0, LABEL_COLUMN - lead.length())), LABEL_COLUMN + 2, width));
        }
        return sb.toString();
    }

    /** {@code -f, --filename=PATH}, short names in their own column. */
    private static String label(CommandLine.Model.OptionSpec o) {
        String shortName = null;
        List<String> longNames = new ArrayList<>();
        for (String n : o.names()) {
            if (n.length() == 2 && n.charAt(0) == '-' && n.charAt(1) != '-' && shortName == null) {
                shortName = n;
            } else {
                longNames.add(n);
            }
        }
        String param = o.arity().max() == 0 ? "" : "=" + o.paramLabel();
        String longPart = String.join(", ", longNames);
        if (longPart.isEmpty()) {
            return shortName + param;
        }
        return (shortName == null ? "    " : shortName + ", ") + longPart + param;
    }

    /** The header, else the first whole sentence of the description. */
    static String summary(CommandSpec spec) {
        String[] header = spec.usageMessage().header();
        List<String> paragraphs = paragraphs(header != null && header.length > 0 ? header : spec.usageMessage().description());
        if (paragraphs.isEmpty()) {
            return "";
        }
        return SENTENCE_END.split(paragraphs.get(0), 2)[0];
    }

    /**
     * Description elements joined into paragraphs: an element that does not end a sentence continues on the next
     * one (they were broken by hand to keep source lines short).
     */
    static List<String> paragraphs(String[] elements) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : elements == null ? new String[0] : elements) {
            for (String line : raw.replace("%n", "\n").replace("%%", "%").split("\n", -1)) {
                String text = line.strip();
                if (text.isEmpty()) {
                    flush(current, out);
                    continue;
                }
                boolean indented = line.startsWith(" ");
                if (indented) {
                    flush(current, out); // an indented line (an example) keeps a line of its own
                    out.add(line.stripTrailing());
                    continue;
                }
                if (current.length() > 0) {
                    current.append(' ');
                }
                current.append(text);
                if (text.matches(".*[.!?)]$")) {
                    flush(current, out);
                }
            }
        }
        flush(current, out);
        return out;
    }

    private static void flush(StringBuilder current, List<String> out) {
        if (current.length() > 0) {
            out.add(current.toString());
            current.setLength(0);
        }
    }

    /**
     * Wraps at spaces: the first line starts with {@code prefix}, the others are indented by {@code indent}; a word
     * longer than the line stays whole rather than being cut.
     */
    static String wrap(String text, String prefix, int indent, int width) {
        StringBuilder sb = new StringBuilder();
        StringBuilder line = new StringBuilder(prefix);
        boolean empty = true;
        for (String word : text.strip().split("\\s+")) {
            if (!empty && line.length() + 1 + word.length() > width) {
                sb.append(line.toString().stripTrailing()).append('\n');
                // a word too long for the indented line moves left rather than past the edge or cut in two
                line = new StringBuilder(" ".repeat(Math.max(0, Math.min(indent, width - word.length()))));
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        return sb.append(line.toString().stripTrailing()).append('\n').toString();
    }
}
