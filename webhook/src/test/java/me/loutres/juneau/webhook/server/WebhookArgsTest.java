package me.loutres.juneau.webhook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * WebhookArgs reads only what picocli reads the same way: over 2,000 random argument lists (the command's own
 * options in both forms, repeated, misspelt, without values, with values that look like options, argument files,
 * ports and durations picocli refuses), every list it reads is read by picocli into the same values; everything else
 * it leaves to picocli.
 */
class WebhookArgsTest {
    private static final String[] NAMES = {"--tls-cert-file", "--tls-key-file", "--port", "--bind-address",
            "--kubeconfig", "--cluster-state", "--shutdown-grace", "--controller-username", "--agent-username",
            "--reserved-cidr", "--manage-unclassed", "--help", "-h", "--version", "-V", "--", "--port-x", "-port",
            "--tls-cert", "--manage-unclassed=true", "--manage-unclassed=false", "@args.txt", "webhook", "extra"};
    private static final String[] VALUES = {"c.pem", "/etc/tls/tls.key", "state.yaml", "a=b", "9443", "0", "08443",
            "65536", "-1", "+80", " 80", "80 ", "1e3", "99999999999", "0x1F", "10s", "500ms", "1m", "PT3S", "2h", "",
            "-", "--port", "-h", "@file", "x@y", "system:serviceaccount:juneau-system:juneau-controller", "10.96.0.0/12",
            "127.0.0.1", "0.0.0.0", "::1", "with space", "quote\"d", "'single'", "tab\there", "é", "a\u0000b", "--",
            "-x", "true", "false", "1S", "s", "ms", "-5s"};

    @Test
    void everyListItReadsPicocliReadsTheSame() {
        Random random = new Random(20261203);
        int read = 0;
        int refusedByPicocli = 0;
        for (int n = 0; n < 2_000; n++) {
            List<String> args = randomArgs(random);
            Optional<WebhookCommand> plain = WebhookArgs.parse(args);
            Optional<WebhookCommand> picocli = picocli(args);
            if (plain.isPresent()) {
                read++;
                assertThat(picocli).as("picocli refuses %s", args).isPresent();
                assertThat(values(plain.get())).as("values of %s", args).isEqualTo(values(picocli.get()));
            } else if (picocli.isEmpty()) {
                refusedByPicocli++;
            }
        }
        // the generator reaches both sides: lists read here and lists picocli refuses
        assertThat(read).isGreaterThan(200);
        assertThat(refusedByPicocli).isGreaterThan(200);
    }

    @Test
    void theCommonFormsAreReadHere() {
        WebhookCommand command = WebhookArgs.parse(List.of("--tls-cert-file", "/tls/tls.crt", "--tls-key-file=/tls/tls.key",
                "--port", "8443", "--bind-address=127.0.0.1", "--cluster-state", "state.yaml", "--controller-username",
                "a", "--controller-username=b", "--reserved-cidr", "10.96.0.0/12", "--agent-username", "agent",
                "--manage-unclassed", "--shutdown-grace", "500ms")).orElseThrow();
        assertThat(values(command)).isEqualTo(values(picocli(List.of("--tls-cert-file", "/tls/tls.crt",
                "--tls-key-file", "/tls/tls.key", "--port", "8443", "--bind-address", "127.0.0.1", "--cluster-state",
                "state.yaml", "--controller-username", "a", "--controller-username", "b", "--reserved-cidr",
                "10.96.0.0/12", "--agent-username", "agent", "--manage-unclassed", "--shutdown-grace", "500ms"))
                .orElseThrow()));
        WebhookConfig config = command.config();
        assertThat(config.port()).isEqualTo(8443);
        assertThat(config.shutdownGrace()).isEqualTo(Duration.ofMillis(500));
        assertThat(config.certFile()).isEqualTo(Path.of("/tls/tls.crt"));
        assertThat(WebhookArgs.parse(List.of("--tls-cert-file", "c", "--tls-key-file", "k")).orElseThrow().config())
                .isEqualTo(picocli(List.of("--tls-cert-file", "c", "--tls-key-file", "k")).orElseThrow().config());
    }

    @Test
    void helpVersionArgumentFilesAndMistakesAreLeftToPicocli() {
        for (List<String> args : List.<List<String>>of(List.of("--help"), List.of("-h"), List.of("--version"),
                List.of("@args.txt"), List.of(), List.of("--tls-cert-file", "c"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--port", "x"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--port", "1", "--port", "2"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--kubeconfig", "a", "--cluster-state", "b"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--shutdown-grace", "soon"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--tls-cert-file", "d"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--no-such-option"),
                List.of("--tls-cert-file", "c", "--tls-key-file", "k", "--help"),
                List.of("--tls-cert-file", "--tls-key-file", "k"))) {
            assertThat(WebhookArgs.parse(args)).as("%s", args).isEmpty();
        }
    }

    private static List<String> randomArgs(Random random) {
        List<String> args = new ArrayList<>();
        // most lists start from a valid pair of TLS files, so that many are complete
        if (random.nextInt(4) > 0) {
            args.add(random.nextBoolean() ? "--tls-cert-file" : "--tls-cert-file=c.pem");
            if (args.get(0).equals("--tls-cert-file")) {
                args.add("c.pem");
            }
            args.add("--tls-key-file");
            args.add("k.pem");
        }
        int more = random.nextInt(6);
        for (int i = 0; i < more; i++) {
            String name = random.nextInt(3) > 0 ? NAMES[random.nextInt(11)] : NAMES[random.nextInt(NAMES.length)];
            String value = VALUES[random.nextInt(VALUES.length)];
            int form = random.nextInt(5);
            if (form == 0) {
                args.add(name + "=" + value);
            } else if (form == 4) {
                args.add(name);
            } else {
                args.add(name);
                args.add(value);
            }
        }
        if (random.nextInt(5) == 0 && !args.isEmpty()) {
            java.util.Collections.shuffle(args, random);
        }
        return args;
    }

    private static Optional<WebhookCommand> picocli(List<String> args) {
        WebhookCommand command = new WebhookCommand();
        try {
            new CommandLine(command).parseArgs(args.toArray(String[]::new));
            return Optional.of(command);
        } catch (CommandLine.ParameterException e) {
            return Optional.empty();
        }
    }

    /** Every field picocli sets, as one comparable list. */
    private static List<Object> values(WebhookCommand c) {
        return java.util.Arrays.asList(c.certFile, c.keyFile, c.port, c.bindAddress,
                c.view == null ? null : c.view.kubeconfig, c.view == null ? null : c.view.clusterState,
                c.controllerUsernames, c.agentUsernames, c.reservedCidrs, c.manageUnclassed, c.shutdownGrace);
    }
}
