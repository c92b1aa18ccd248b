package me.loutres.juneau.webhook.server;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The plain {@code juneau webhook ...} arguments, read without picocli: picocli builds its model of the command
 * (reflection over every option, help sections, converters) before it parses anything, and that was a large part of
 * the main thread's work before the first {@code /readyz} (BENCHMARKS.md, "Webhook cold start, round 3"). Only the
 * common forms are read here: {@code --name value} and {@code --name=value} of the command's own long options, each
 * single-valued option at most once, one of {@code --kubeconfig} and {@code --cluster-state}, the two TLS files,
 * values that are not empty and start with neither {@code -} nor {@code @}, and a port of plain digits. Anything else
 * (help, version, an argument file, an unknown or repeated option, a value picocli would convert differently or refuse)
 * answers empty, and the caller hands the arguments to picocli as before, so help, errors and their wording stay
 * picocli's. WebhookArgsTest holds every list read here equal to picocli's reading.
 */
public final class WebhookArgs {
    private static final Set<String> SINGLE = Set.of("--tls-cert-file", "--tls-key-file", "--port", "--bind-address",
            "--kubeconfig", "--cluster-state", "--shutdown-grace");
    private static final Set<String> REPEATABLE = Set.of("--controller-username", "--agent-username",
            "--reserved-cidr");
    private static final String MANAGE_UNCLASSED = "--manage-unclassed";

    private WebhookArgs() {
    }

    /** The command with these arguments (those after {@code webhook}) set, or empty when picocli must read them. */
    public static Optional<WebhookCommand> parse(List<String> args) {
        try {
            return Optional.ofNullable(read(args));
        } catch (InvalidPathException | NumberFormatException | picocli.CommandLine.TypeConversionException e) {
            return Optional.empty();
        }
    }

    private static WebhookCommand read(List<String> args) {
        WebhookCommand command = new WebhookCommand();
        command.port = Integer.parseInt(WebhookCommand.DEFAULT_PORT);
        command.bindAddress = WebhookCommand.DEFAULT_BIND_ADDRESS;
        String grace = WebhookCommand.DEFAULT_SHUTDOWN_GRACE;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                return null;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            String value = equals < 0 ? null : arg.substring(equals + 1);
            if (name.equals(MANAGE_UNCLASSED)) {
                if (value != null || !seen.add(name)) {
                    return null;
                }
                command.manageUnclassed = true;
                continue;
            }
            boolean single = SINGLE.contains(name);
            if (!single && !REPEATABLE.contains(name) || single && !seen.add(name)) {
                return null;
            }
            if (value == null) {
                if (i + 1 == args.size()) {
                    return null;
                }
                value = args.get(++i);
            }
            if (value.isEmpty() || value.startsWith("-") || value.startsWith("@")) {
                return null;
            }
            switch (name) {
                case "--tls-cert-file" -> command.certFile = Path.of(value);
                case "--tls-key-file" -> command.keyFile = Path.of(value);
                case "--port" -> {
                    if (!value.matches("[0-9]{1,9}")) {
                        return null;
                    }
                    command.port = Integer.parseInt(value);
                }
                case "--bind-address" -> command.bindAddress = value;
                case "--kubeconfig", "--cluster-state" -> {
                    if (command.view != null) {
                        return null; // picocli refuses the two together
                    }
                    command.view = new WebhookCommand.ViewChoice();
                    if (name.equals("--kubeconfig")) {
                        command.view.kubeconfig = Path.of(value);
                    } else {
                        command.view.clusterState = Path.of(value);
                    }
                }
                case "--shutdown-grace" -> grace = value;
                case "--controller-username" -> command.controllerUsernames.add(value);
                case "--agent-username" -> command.agentUsernames.add(value);
                case "--reserved-cidr" -> command.reservedCidrs.add(value);
                default -> {
                    return null;
                }
            }
        }
        if (command.certFile == null || command.keyFile == null) {
            return null; // picocli names the missing option
        }
        command.shutdownGrace = new WebhookCommand.DurationConverter().convert(grace);
        return command;
    }
}
