package me.loutres.juneau.webhook.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.jetty.util.MemoryUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JettyProbeTest {
    private String before;

    @BeforeEach
    void remember() {
        before = System.getProperty(WebhookServer.REFERENCES_PER_CACHE_LINE);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(WebhookServer.REFERENCES_PER_CACHE_LINE);
        } else {
            System.setProperty(WebhookServer.REFERENCES_PER_CACHE_LINE, before);
        }
    }

    @Test
    void tellsJettyTheCompressedReferenceCountSoItNeedNotAskTheMBeanServer() {
        System.clearProperty(WebhookServer.REFERENCES_PER_CACHE_LINE);

        WebhookServer.skipJettysMBeanServerProbe();

        assertThat(System.getProperty(WebhookServer.REFERENCES_PER_CACHE_LINE)).isEqualTo("16");
        // what Jetty reads it as: a cache line of 64 bytes over 4-byte references
        assertThat(Integer.parseInt(System.getProperty(WebhookServer.REFERENCES_PER_CACHE_LINE)))
                .isEqualTo(MemoryUtils.getCacheLineBytes() / 4);
    }

    @Test
    void anOperatorsOwnValueWins() {
        System.setProperty(WebhookServer.REFERENCES_PER_CACHE_LINE, "8");

        WebhookServer.skipJettysMBeanServerProbe();

        assertThat(System.getProperty(WebhookServer.REFERENCES_PER_CACHE_LINE)).isEqualTo("8");
    }
}
