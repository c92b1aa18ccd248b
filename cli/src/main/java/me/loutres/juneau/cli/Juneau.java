package me.loutres.juneau.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code juneau} command: one entry point that dispatches to every part. */
@Command(name = "juneau", mixinStandardHelpOptions = true, version = "juneau 0.1.0",
        description = "Bare-metal Service type LoadBalancer for Kubernetes.",
        subcommands = {
                me.loutres.juneau.cli.demo.DemoCommand.class,
                me.loutres.juneau.cli.demo.UpCommand.class,
                me.loutres.juneau.cli.validate.ValidateCommand.class,
                me.loutres.juneau.cli.plan.PlanCommand.class,
                me.loutres.juneau.webhook.server.WebhookCommand.class,
                me.loutres.juneau.controller.ControllerCommand.class,
                me.loutres.juneau.agent.AgentCommand.class,
                me.loutres.juneau.certs.CertsCommand.class,
        })
public final class Juneau implements Callable<Integer> {
    /** Exit code of a command that cannot run (bad usage, unreadable input). */
    public static final int EXIT_UNAVAILABLE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The command line with Juneau's help layout and one-line usage errors (exit 2) on every subcommand. */
    public static CommandLine commandLine() {
        return HelpLayout.install(new CommandLine(new Juneau()), EXIT_UNAVAILABLE);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return EXIT_UNAVAILABLE;
    }
}
