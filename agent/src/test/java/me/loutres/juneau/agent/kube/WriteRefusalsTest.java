package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import me.loutres.juneau.agent.ops.AgentMetrics;
import me.loutres.juneau.plan.RefusedWrites;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A write the API server refuses the agent (issue 41, item 3): a WARN once per kind and reason, the counter
 * juneau_agent_writes_refused_total{kind,reason}, and the latest refusal per kind for the Lease annotation.
 */
class WriteRefusalsTest {
    final Logger log = (Logger) LoggerFactory.getLogger(WriteRefusals.class);
    final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    final AgentMetrics metrics = new AgentMetrics();
    final WriteRefusals refusals = new WriteRefusals(metrics);

    WriteRefusalsTest() {
        lines.start();
        log.addAppender(lines);
    }

    @AfterEach
    void detach() {
        log.detachAppender(lines);
    }

    static KubernetesClientException refusal(int code, String reason, String message) {
        return new KubernetesClientException(new StatusBuilder().withCode(code).withReason(reason)
                .withMessage(message).build());
    }

    long warnings() {
        return lines.list.stream().filter(e -> e.getLevel() == Level.WARN).count();
    }

    @Test
    void aRefusalIsOneWarningPerKindAndReasonCountedEachTime() {
        KubernetesClientException forbidden = refusal(403, "Forbidden", "bgpsessions.juneau.loutres.me is forbidden");
        assertThat(refusals.refused("BGPSession", forbidden)).isTrue();
        assertThat(refusals.refused("BGPSession", forbidden)).isTrue();
        assertThat(refusals.refused("BGPSession", refusal(422, "Invalid", "status.state: Unsupported value"))).isTrue();
        assertThat(refusals.refused("ARPAdvertisement", forbidden)).isTrue();

        assertThat(warnings()).isEqualTo(3);
        assertThat(lines.list.get(0).getFormattedMessage()).startsWith("the API server refuses this agent's"
                + " BGPSession writes (Forbidden): bgpsessions.juneau.loutres.me is forbidden");
        assertThat(metrics.writesRefused("BGPSession", "Forbidden")).isEqualTo(2.0);
        assertThat(metrics.writesRefused("BGPSession", "Invalid")).isEqualTo(1.0);
        assertThat(metrics.scrape()).contains("juneau_agent_writes_refused_total{kind=\"BGPSession\",reason=\"Forbidden\"} 2.0");
        assertThat(RefusedWrites.parse(refusals.annotation()))
                .containsEntry("BGPSession", "Invalid: status.state: Unsupported value")
                .containsEntry("ARPAdvertisement", "Forbidden: bgpsessions.juneau.loutres.me is forbidden");
    }

    @Test
    void anOutageOrAConflictIsNoRefusal() {
        assertThat(refusals.refused("BGPSession", refusal(409, "Conflict", "the object has been modified"))).isFalse();
        assertThat(refusals.refused("BGPSession", new KubernetesClientException("connection refused"))).isFalse();
        assertThat(warnings()).isZero();
        assertThat(refusals.annotation()).isNull();
    }

    @Test
    void aSuccessEndsTheRefusalAndARefusalAgainIsSaidAgain() {
        KubernetesClientException forbidden = refusal(403, "Forbidden", "no");
        refusals.refused("BGPSession", forbidden);
        refusals.succeeded("BGPSession");
        assertThat(refusals.annotation()).isNull();
        refusals.refused("BGPSession", forbidden);
        assertThat(warnings()).isEqualTo(2);
    }
}
