package me.loutres.juneau.agent.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import java.util.List;
import me.loutres.juneau.agent.testing.AgentCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Events on a Service (issue 41): {@code kubectl describe service} lists only the Events whose
 * {@code involvedObject.uid} is the Service's, so the uid goes in when the advertisement named it, and is left out,
 * never invented, when it did not.
 */
class ReporterMockTest {
    final AgentCluster cluster = new AgentCluster();

    @AfterEach
    void close() {
        cluster.close();
    }

    List<Event> events() {
        return cluster.client().v1().events().inNamespace("shop").list().getItems();
    }

    @Test
    void anEventOnAServiceCarriesItsUidWhenKnown() {
        new Reporter(cluster.client(), "node-a").event("shop", "web", "uid-1", "Normal", "Announcing", "m");

        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("Service");
            assertThat(e.getInvolvedObject().getNamespace()).isEqualTo("shop");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("web");
            assertThat(e.getInvolvedObject().getUid()).isEqualTo("uid-1");
        });
    }

    @Test
    void anEventOnAServiceWithoutAKnownUidLeavesTheUidOut() {
        Reporter reporter = new Reporter(cluster.client(), "node-a");
        reporter.event("shop", "web", null, "Normal", "Announcing", "m1");
        reporter.event("shop", "web", "", "Normal", "Announcing", "m2");
        reporter.event("shop", "web", "Normal", "Announcing", "m3");

        assertThat(events()).hasSize(3).allSatisfy(e -> {
            assertThat(e.getInvolvedObject().getName()).isEqualTo("web");
            assertThat(e.getInvolvedObject().getUid()).isNull();
        });
    }
}
