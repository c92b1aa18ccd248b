package me.loutres.juneau.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;

/** Runs the demo's scenario against the real local stack and checks what it observed, not how it words it. */
class DemoIT {

    @Test
    void everyStepOfTheScenarioBehaves() throws Exception {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DemoReport report;
        try (LocalStack stack = LocalStack.start(0, 0, true)) {
            assertThat(stack.awaitReady(Duration.ofSeconds(60))).as("stack ready").isTrue();
            report = new DemoScenario(stack, new PrintStream(buffer, true, StandardCharsets.UTF_8), false).play();
        }
        String output = buffer.toString(StandardCharsets.UTF_8);
        assertThat(report.steps()).as(output).hasSize(8).allSatisfy(s -> assertThat(s.failure()).isNull());
        assertThat(report.succeeded()).isTrue();

        // rejections are the real webhook's, as the API server relays them
        assertThat(report.rejections()).containsKeys("lan-overlap.yaml", "node-range.yaml", "edge-typo.yaml",
                "no-network.yaml", "typo-network.yaml", "outside-ip.yaml", "sctp-port.yaml");
        assertThat(report.rejections().get("typo-network.yaml")).startsWith(
                "Error from server (Forbidden): error when creating \"manifests/examples/demo/refused/typo-network.yaml\": "
                        + "admission webhook \""
                        + JuneauConstants.WEBHOOK_SERVICES_VALIDATE + "\" denied the request: ");
        assertThat(report.rejections().get("lan-overlap.yaml"))
                .contains(JuneauConstants.validateWebhookName(JuneauConstants.PLURAL_ADDRESS_POOLS));
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("externalTrafficPolicy"));

        // allocation order, edges, election and failover
        assertThat(report.vips()).containsEntry("default/web", "192.168.10.200")
                .containsEntry("default/api", "203.0.113.1").containsEntry("default/web-4", "192.168.10.201");
        assertThat(report.arpNodeBefore()).isIn("node-a", "node-b");
        assertThat(report.arpNodeAfter()).isIn("node-a", "node-b").isNotEqualTo(report.arpNodeBefore());
        assertThat(report.arpMovedInPlace()).isTrue();
        assertThat(report.failoverMillis()).isGreaterThanOrEqualTo(0);

        // why is my Service pending: reason and an actionable message with the counts
        assertThat(report.pendingReason()).isEqualTo(JuneauConstants.REASON_POOL_EXHAUSTED);
        assertThat(report.pendingMessage()).contains("lan-pool", "3/3");
        assertThat(report.recoveredVip()).isEqualTo("192.168.10.201");
    }

    @Test
    void theCommandExitsZeroAndSaysSo() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code = new picocli.CommandLine(new DemoCommand(new PrintStream(buffer, true, StandardCharsets.UTF_8)))
                .execute();
        String output = buffer.toString(StandardCharsets.UTF_8);
        assertThat(code).as(output).isZero();
        assertThat(output).contains("[8/8]");
    }
}
