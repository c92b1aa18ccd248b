package me.loutres.juneau.certs;

import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code juneau certs}: TLS material for the webhook when cert-manager is not used (docs/install.md). */
@Command(name = "certs", mixinStandardHelpOptions = true,
        description = "Generate TLS material for the webhook and inject the CA bundle into the webhook configurations.",
        subcommands = {GenerateCommand.class, InjectCommand.class})
public final class CertsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /** A command line whose subcommands use the given client factory and clock (tests). */
    static CommandLine commandLine(ClientFactory clients, Clock clock) {
        CommandLine.IFactory fallback = CommandLine.defaultFactory();
        return new CommandLine(new CertsCommand(), new CommandLine.IFactory() {
            @Override
            @SuppressWarnings("unchecked")
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == GenerateCommand.class) {
                    return (K) new GenerateCommand(clients, clock);
                }
                if (cls == InjectCommand.class) {
                    return (K) new InjectCommand(clients);
                }
                return fallback.create(cls);
            }
        });
    }
}
