package me.loutres.juneau.runtime.ops;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * A server started on its own ({@code java -jar controller.jar --bogus}) answers a wrong flag or value as
 * {@code juneau <command>} does: one line naming what is wrong and where the help is, exit 2, not the whole usage
 * (picocli's default), which buries the one line that matters in a container's log.
 */
public final class UsageErrors {
    /** Exit code of a command that cannot run as asked. */
    public static final int EXIT_BAD_USAGE = 2;

    private UsageErrors() {
    }

    /** The command line of a server's main: one-line usage errors, exit 2. */
    public static CommandLine oneLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println(line(ex));
            err.flush();
            return EXIT_BAD_USAGE;
        });
        return cl;
    }

    /** {@code juneau <command>: <what picocli found> (see --help)}. */
    static String line(CommandLine.ParameterException ex) {
        String message = ex.getMessage() == null ? "bad usage" : ex.getMessage().strip().split("\\R", 2)[0];
        return "juneau " + ex.getCommandLine().getCommandName() + ": " + message + " (see --help)";
    }
}
