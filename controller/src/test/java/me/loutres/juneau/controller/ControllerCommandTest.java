package me.loutres.juneau.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class ControllerCommandTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "--kubeconfig=/no/such/kubeconfig | --kubeconfig /no/such/kubeconfig is not a readable file",
            "--workers=0 | --workers must be at least 1, got 0",
            "--metrics-port=70000 | --metrics-port must be 0-65535 (or -1 for none), got 70000",
            "--lease-duration=1 | lease timing needs --retry-period < --renew-deadline < --lease-duration, got"
                    + " 2000ms < 10000ms < 1000ms",
            "--renew-deadline=soon | --renew-deadline must be a duration such as 15s, 2.5s, 1500ms or 1m, got \"soon\"",
            "--retry-period=0s | --retry-period must be more than 0 and at most 24h, got \"0s\"",
            "--kubeconfig=pom.xml | --kubeconfig pom.xml cannot be used: "})
    void badInputIsOneClearLineAndExitCode2(String arg, String message) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = new CommandLine(new ControllerCommand()).execute(arg);
        } finally {
            System.setErr(old);
        }
        String out = err.toString(StandardCharsets.UTF_8).trim();
        assertThat(code).isEqualTo(2);
        assertThat(out).startsWith("juneau controller: " + message).doesNotContain("\n").doesNotContain("Exception");
    }

    @ParameterizedTest(name = "java -jar controller.jar {0}")
    @CsvSource(delimiter = '|', value = {
            "--bogus | Unknown option: '--bogus'",
            "--workers=many | Invalid value for option '--workers': 'many' is not an int"})
    void theJarsMainAnswersAWrongFlagWithOneLinePointingAtHelp(String arg, String message) {
        java.io.StringWriter err = new java.io.StringWriter();
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cl = ControllerCommand.commandLine();
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setOut(new java.io.PrintWriter(out, true));
        int code = cl.execute(arg);
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEqualTo("juneau controller: " + message + " (see --help)" + System.lineSeparator());
    }

    @ParameterizedTest(name = "{0} -> {1} ms")
    @CsvSource({"15, 15000", "15s, 15000", "2.5s, 2500", "1500ms, 1500", "1m, 60000", " 4s , 4000"})
    void durationsAreSecondsByDefaultOrCarryTheirUnit(String text, long millis) {
        assertThat(ControllerCommand.duration("--x", text)).isEqualTo(java.time.Duration.ofMillis(millis));
    }

    @Test
    void theLeaseTimingDefaultsAreClientGos() {
        ControllerCommand c = new ControllerCommand();
        new CommandLine(c).parseArgs();
        assertThat(ControllerCommand.duration("--lease-duration", c.leaseDuration)).hasSeconds(15);
        assertThat(ControllerCommand.duration("--renew-deadline", c.renewDeadline)).hasSeconds(10);
        assertThat(ControllerCommand.duration("--retry-period", c.retryPeriod)).hasSeconds(2);
    }

    @Test
    void theIdentityDefaultsToThePodName() {
        assertThat(ControllerCommand.defaultIdentity()).isNotBlank();
    }

    @Test
    void theUserAgentNamesTheReplicaSoTheApiServerCanTellReplicasApart() {
        assertThat(ControllerCommand.userAgent("juneau-controller-7d9f-x2")).isEqualTo(
                "juneau-controller/juneau-controller-7d9f-x2");
        // a header carries printable ASCII only: a space or a line break in a hand-given identity cannot break it
        assertThat(ControllerCommand.userAgent("a b\r\nc\u00e9")).isEqualTo("juneau-controller/a_b__c_");
    }
}
