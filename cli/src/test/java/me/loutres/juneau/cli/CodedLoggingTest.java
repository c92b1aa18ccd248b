package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import me.loutres.juneau.webhook.server.LoggingShape;
import org.junit.jupiter.api.Test;

class CodedLoggingTest {
    @Test
    void aStartFromTheJarsConfiguresWhatTheCliLogbackXmlDoes() throws Exception {
        Map<String, String> xml = LoggingShape.of(LoggingShape.fromXml(CodedLogging.class.getResource("/logback.xml")));
        LoggerContext context = new LoggerContext();

        // the jars hold no logback-test.xml (the tests' class path does)
        ExecutionStatus status = new CodedLogging().configure(context, null, emptyClassPath());

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(LoggingShape.of(context)).isEqualTo(xml);
        assertThat(xml).containsEntry("level io.fabric8", "WARN").containsKey("appender ROOT/STDERR");
    }

    @Test
    void aFileNamedByThePropertyOrATestConfigurationWins() {
        LoggerContext untouched = new LoggerContext();
        Map<String, String> fresh = LoggingShape.of(untouched);

        assertThat(new CodedLogging().configure(untouched, "logback.xml", emptyClassPath()))
                .isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(new CodedLogging().configure(untouched, null, CodedLoggingTest.class.getClassLoader()))
                .as("logback-test.xml on the tests' class path").isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(LoggingShape.of(untouched)).isEqualTo(fresh);
    }

    @Test
    void aProcessToldToLogAsShippedPassesOverTheTestConfigurationButNotANamedFile() throws Exception {
        System.setProperty(CodedLogging.SHIPPED, "true");
        try {
            LoggerContext context = new LoggerContext();
            assertThat(new CodedLogging().configure(context, null, CodedLoggingTest.class.getClassLoader()))
                    .as("logback-test.xml on the class path, passed over").isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
            assertThat(LoggingShape.of(context))
                    .isEqualTo(LoggingShape.of(LoggingShape.fromXml(CodedLogging.class.getResource("/logback.xml"))));
            assertThat(new CodedLogging().configure(new LoggerContext(), "logback.xml", emptyClassPath()))
                    .isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
        } finally {
            System.clearProperty(CodedLogging.SHIPPED);
        }
    }

    private static ClassLoader emptyClassPath() {
        return new URLClassLoader(new URL[0], null);
    }
}
