package me.loutres.juneau.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import me.loutres.juneau.webhook.server.WebhookArgs;
import me.loutres.juneau.webhook.server.WebhookCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code juneau} command: one entry point that dispatches to every part. */
@Command(name = "juneau", mixinStandardHelpOptions = true, version = "juneau 0.1.0",
        description = "Bare-metal Service type LoadBalancer for Kubernetes.")
public final class Juneau implements Callable<Integer> {
    /** Every subcommand, in the order {@code juneau --help} lists them. */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            me.loutres.juneau.cli.demo.DemoCommand.class,
            me.loutres.juneau.cli.demo.UpCommand.class,
            me.loutres.juneau.cli.validate.ValidateCommand.class,
            me.loutres.juneau.cli.plan.PlanCommand.class,
            me.loutres.juneau.webhook.server.WebhookCommand.class,
            me.loutres.juneau.controller.ControllerCommand.class,
            me.loutres.juneau.agent.AgentCommand.class,
            me.loutres.juneau.certs.CertsCommand.class);

    /** Exit code of a command that cannot run (bad usage, unreadable input). */
    public static final int EXIT_UNAVAILABLE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        Optional<WebhookCommand> webhook = plainWebhook(args);
        if (webhook.isPresent()) {
            return runDirectly(webhook.get());
        }
        return commandLine(args.length == 0 ? null : args[0]).execute(args);
    }

    /**
     * {@code juneau webhook} with plain arguments, read without picocli (WebhookArgs): building picocli's model of the
     * command was about a third of the main thread's work before the webhook's first {@code /readyz} (BENCHMARKS.md,
     * "Webhook cold start, round 3"). Empty for anything else, which picocli reads as before (help, version, errors).
     */
    static Optional<WebhookCommand> plainWebhook(String... args) {
        if (args.length == 0 || !args[0].equals("webhook")) {
            return Optional.empty();
        }
        return WebhookArgs.parse(Arrays.asList(args).subList(1, args.length));
    }

    /** As picocli's {@code execute} runs a command: its exit code, or the stack trace and 1 for an exception. */
    private static int runDirectly(WebhookCommand command) {
        try {
            return command.call();
        } catch (RuntimeException e) {
            e.printStackTrace();
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /** The command line with Juneau's help layout and one-line usage errors (exit 2) on every subcommand. */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * The command line for arguments starting with {@code first}: when it names a subcommand, only that one is built
     * (its options, help and errors are the same), since picocli reflects over every command it is given and a
     * server's start-up paid for all eight (BENCHMARKS.md, webhook start-up); otherwise all of them.
     */
    static CommandLine commandLine(String first) {
        List<Class<?>> chosen = SUBCOMMANDS.stream().filter(c -> names(c).contains(first)).toList();
        CommandLine cl = new CommandLine(new Juneau());
        for (Class<?> sub : chosen.isEmpty() ? SUBCOMMANDS : chosen) {
            cl.addSubcommand(sub);
        }
        return HelpLayout.install(cl, EXIT_UNAVAILABLE);
    }

    private static List<String> names(Class<?> command) {
        Command annotation = command.getAnnotation(Command.class);
        List<String> names = new ArrayList<>(List.of(annotation.aliases()));
        names.add(annotation.name());
        return names;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return EXIT_UNAVAILABLE;
    }
}
