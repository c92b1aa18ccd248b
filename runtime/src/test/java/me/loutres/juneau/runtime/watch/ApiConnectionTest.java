package me.loutres.juneau.runtime.watch;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One line when the API server goes, one when it is back, however many paths fail and retry in between. */
class ApiConnectionTest {
    private final Logger log = (Logger) LoggerFactory.getLogger(ApiConnection.class);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    ApiConnectionTest() {
        lines.start();
        log.addAppender(lines);
        log.setLevel(ch.qos.logback.classic.Level.INFO);
    }

    @AfterEach
    void detach() {
        log.detachAppender(lines);
        log.setLevel(null);
    }

    private List<String> said() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void anOutageOnSeveralPathsIsOneLineAndEndsWhenEveryPathWorksAgain() {
        ApiConnection c = new ApiConnection(() -> "answering ARP for 2 VIP(s) from memory meanwhile");
        c.failed("agent watches", "listing/watching Node: ConnectException: Connection refused");
        c.failed("agent watches", "listing/watching Node: ConnectException: Connection refused");
        c.unreachable(new KubernetesClientException("boom", new java.io.IOException("reset")));
        assertThat(c.down()).isTrue();
        c.ok("agent watches");
        assertThat(c.down()).as("the Lease still fails").isTrue();
        c.answered();
        assertThat(c.down()).isFalse();
        c.ok("agent watches");

        assertThat(said()).hasSize(2);
        assertThat(said().get(0)).startsWith("cannot reach the API server (agent watches: listing/watching Node: "
                + "ConnectException: Connection refused); retrying with backoff, answering ARP for 2 VIP(s)");
        assertThat(said().get(1)).startsWith("the API server answers again").contains("Lease: IOException: reset");
        assertThat(lines.list).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
    }

    @Test
    void aPathThatWorksSaysNothing() {
        ApiConnection c = new ApiConnection();
        c.ok("watches");
        c.answered();
        assertThat(c.down()).isFalse();
        assertThat(said()).isEmpty();
    }

    @Test
    void theProblemIsOneShortLine() {
        KubernetesClientException forbidden = new KubernetesClientException(new StatusBuilder().withCode(403)
                .withMessage("nodes is forbidden\nmore").build());
        assertThat(ApiConnection.firstLine(forbidden)).isEqualTo("HTTP 403 nodes is forbidden");
        assertThat(ApiConnection.firstLine(new RuntimeException("x", new java.net.ConnectException("refused\nat"))))
                .isEqualTo("ConnectException: refused");
        assertThat(ApiConnection.firstLine(new IllegalStateException("y".repeat(500)))).hasSize(203);
        assertThat(ApiConnection.isOutage(forbidden)).isFalse();
        assertThat(ApiConnection.isOutage(new KubernetesClientException("x", new java.io.IOException()))).isTrue();
        assertThat(ApiConnection.notFound(new KubernetesClientException(new StatusBuilder().withCode(404).build())))
                .isTrue();
        assertThat(ApiConnection.notFound(forbidden)).isFalse();
    }
}
