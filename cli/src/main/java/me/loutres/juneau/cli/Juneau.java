package me.loutres.juneau.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code juneau} command: one entry point that dispatches to every part. */
@Command(name = "juneau", mixinStandardHelpOptions = true, version = "juneau 0.1.0",
        description = "Bare-metal Service type LoadBalancer for Kubernetes.",
        subcommands = {
                Juneau.Demo.class,
                Juneau.Up.class,
                me.loutres.juneau.cli.validate.ValidateCommand.class,
                me.loutres.juneau.cli.plan.PlanCommand.class,
                me.loutres.juneau.webhook.server.WebhookCommand.class,
                me.loutres.juneau.controller.ControllerCommand.class,
                me.loutres.juneau.certs.CertsCommand.class,
        })
public final class Juneau implements Callable<Integer> {
    /** Exit code of a command that cannot run (bad usage, unreadable input, not built yet). */
    public static final int EXIT_UNAVAILABLE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        // picocli answers bad usage with exit code 2 (ExitCode.USAGE), matching EXIT_UNAVAILABLE
        CommandLine cl = new CommandLine(new Juneau());
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return EXIT_UNAVAILABLE;
    }

    /** A command whose part is not built yet says so plainly instead of pretending. */
    abstract static class NotYetAvailable implements Callable<Integer> {
        @CommandLine.Unmatched
        java.util.List<String> ignored;

        abstract String what();

        @Override
        public Integer call() {
            System.err.println("juneau: '" + what() + "' is not available yet in this build (see the open issues); nothing was done.");
            return EXIT_UNAVAILABLE;
        }
    }

    @Command(name = "demo", description = "Run the whole product on this machine with no cluster and play a scenario.")
    static final class Demo extends NotYetAvailable {
        String what() {
            return "demo";
        }
    }

    @Command(name = "up", description = "Start an embedded API server, the webhook and the controller until interrupted.")
    static final class Up extends NotYetAvailable {
        String what() {
            return "up";
        }
    }
}
