package me.loutres.juneau.webhook.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShippedLoggingTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(ShippedLogging.REQUESTS_LEVEL);
    }

    @Test
    void theCodeConfiguresWhatTheShippedXmlDoes() throws Exception {
        Map<String, String> xml = LoggingShape.of(LoggingShape.fromXml(WebhookLogging.class.getResource(WebhookLogging.CONFIG)));

        assertThat(LoggingShape.of(coded())).isEqualTo(xml);
        assertThat(xml).containsEntry("level org.eclipse.jetty", "WARN")
                .containsEntry("level io.fabric8.kubernetes.client.informers.impl.cache.Reflector", "OFF")
                .containsKey("appender ROOT/STDERR");
    }

    @Test
    void theAccessLogFollowsTheSamePropertyAsTheXml() throws Exception {
        System.setProperty(ShippedLogging.REQUESTS_LEVEL, "DEBUG");

        Map<String, String> xml = LoggingShape.of(LoggingShape.fromXml(WebhookLogging.class.getResource(WebhookLogging.CONFIG)));

        assertThat(xml).containsEntry("level me.loutres.juneau.webhook.access", "DEBUG");
        assertThat(LoggingShape.of(coded())).isEqualTo(xml);
    }

    private static LoggerContext coded() {
        LoggerContext context = new LoggerContext();
        ShippedLogging.apply(context);
        return context;
    }
}
