package me.loutres.juneau.webhook.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class WebhookCommandTest {
    @TempDir
    Path dir;

    private static WebhookConfig parse(String... args) {
        WebhookCommand command = new WebhookCommand();
        new CommandLine(command).parseArgs(args);
        return command.config();
    }

    private record Run(int exit, String err) {
    }

    private static Run run(String... args) {
        StringWriter err = new StringWriter();
        PrintStream originalErr = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            int exit = new CommandLine(new WebhookCommand()).setErr(new PrintWriter(err, true)).execute(args);
            return new Run(exit, err + captured.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            System.setErr(originalErr);
        }
    }

    @Test
    void defaults() {
        WebhookConfig config = parse("--tls-cert-file", "c.pem", "--tls-key-file", "k.pem");
        assertThat(config.certFile()).isEqualTo(Path.of("c.pem"));
        assertThat(config.keyFile()).isEqualTo(Path.of("k.pem"));
        assertThat(config.port()).isEqualTo(9443);
        assertThat(config.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(config.viewSource()).isEqualTo(new ClusterViewSource.InCluster());
        assertThat(config.settings().controllerUsernames()).containsExactly(JuneauConstants.DEFAULT_CONTROLLER_USERNAME);
        assertThat(config.settings().reservedCidrs()).isEmpty();
        assertThat(config.reloadInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.maxBodyBytes()).isEqualTo(3 * 1024 * 1024);
        assertThat(config.settings().managed()).isEqualTo(ManagedServices.CLASSED);
    }

    @Test
    void everyFlag() {
        WebhookConfig config = parse("--tls-cert-file", "c.pem", "--tls-key-file", "k.pem", "--port", "8443",
                "--bind-address", "127.0.0.1", "--cluster-state", "state.yaml",
                "--controller-username", "system:serviceaccount:x:ctl", "--controller-username", "admin",
                "--reserved-cidr", "10.96.0.0/12", "--reserved-cidr", "192.168.1.1", "--shutdown-grace", "500ms",
                "--agent-username", "system:serviceaccount:edge:agent", "--manage-unclassed");
        assertThat(config.port()).isEqualTo(8443);
        assertThat(config.settings().managed()).isEqualTo(ManagedServices.UNCLASSED_TOO);
        assertThat(config.settings().agentUsernames()).containsExactly("system:serviceaccount:edge:agent");
        assertThat(config.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(config.viewSource()).isEqualTo(new ClusterViewSource.StateFile(Path.of("state.yaml")));
        assertThat(config.settings().controllerUsernames()).containsExactlyInAnyOrder("system:serviceaccount:x:ctl", "admin");
        assertThat(config.settings().reservedCidrs()).containsExactly("10.96.0.0/12", "192.168.1.1");
        assertThat(config.shutdownGrace()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void kubeconfig() {
        assertThat(parse("--tls-cert-file", "c", "--tls-key-file", "k", "--kubeconfig", "/etc/kube.conf").viewSource())
                .isEqualTo(new ClusterViewSource.Kubeconfig(Path.of("/etc/kube.conf")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no key file|--tls-cert-file c.pem|--tls-key-file",
            "both views|--tls-cert-file c --tls-key-file k --kubeconfig a --cluster-state b|mutually exclusive",
            "bad port|--tls-cert-file c --tls-key-file k --port http|--port",
            "bad duration|--tls-cert-file c --tls-key-file k --shutdown-grace soon|not a duration",
    })
    void badUsageExitsTwoWithTheReason(String what, String args, String reason) {
        Run run = run(args.split(" "));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(reason);
    }

    @Test
    void aBadReservedCidrExitsTwoWithOneLine() {
        Run run = run("--tls-cert-file", "c", "--tls-key-file", "k", "--reserved-cidr", "10.0.0.0/33");
        assertThat(run.exit()).isEqualTo(WebhookCommand.EXIT_CANNOT_START);
        assertThat(run.err().strip()).startsWith("juneau webhook: ").contains("10.0.0.0/33").doesNotContain("\n")
                .doesNotContain("Exception");
    }

    @Test
    void missingCertificateFilesExitTwoWithOneLine() {
        Run run = run("--tls-cert-file", dir.resolve("tls.crt").toString(), "--tls-key-file",
                dir.resolve("tls.key").toString(), "--port", "0", "--bind-address", "127.0.0.1");
        assertThat(run.exit()).isEqualTo(WebhookCommand.EXIT_CANNOT_START);
        assertThat(run.err().strip()).isEqualTo("juneau webhook: cannot start: the TLS certificate file "
                + dir.resolve("tls.crt") + " does not exist");
    }

    /** The key's check runs beside Jetty's start; a key of another pair still fails the start, and nothing stays bound. */
    @Test
    void aKeyOfAnotherCertificateExitsTwoWithOneLineAndLeavesThePortFree() throws Exception {
        me.loutres.juneau.webhook.TestPki pki = new me.loutres.juneau.webhook.TestPki(dir);
        me.loutres.juneau.tls.CertificateAndKey served = pki.issue();
        me.loutres.juneau.tls.CertificateAndKey other = pki.issue();
        pki.write(served.certificatePem(), other.keyPem());
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }

        Run run = run("--tls-cert-file", pki.certFile.toString(), "--tls-key-file", pki.keyFile.toString(),
                "--port", Integer.toString(port), "--bind-address", "127.0.0.1", "--cluster-state",
                Path.of(WebhookCommandTest.class.getResource("/cluster-state.yaml").toURI()).toString());

        assertThat(run.exit()).isEqualTo(WebhookCommand.EXIT_CANNOT_START);
        assertThat(run.err().strip()).startsWith("juneau webhook: cannot start: the private key does not match the certificate")
                .doesNotContain("\n").doesNotContain("Exception");
        try (java.net.ServerSocket again = new java.net.ServerSocket(port, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            assertThat(again.getLocalPort()).as("the failed start released its port").isEqualTo(port);
        }
    }
}
