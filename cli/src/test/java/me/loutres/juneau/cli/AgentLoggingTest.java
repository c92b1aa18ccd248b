package me.loutres.juneau.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.agent.AgentJvm;
import me.loutres.juneau.agent.AgentLogging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's logging in code ({@link AgentLogging}) prints what the command line's {@code logback.xml} prints: the
 * same levels for the agent's own loggers and every library it loads, the same line on stderr.
 */
class AgentLoggingTest {
    /** The agent's loggers and its libraries', and each name the XML or the code sets. */
    static final List<String> NAMES = List.of("me.loutres.juneau.agent.NodeAgent",
            "me.loutres.juneau.runtime.watch.ApiConnection", "io.fabric8.kubernetes.client.informers.impl.cache.Reflector",
            "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils",
            "io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager", "io.fabric8.kubernetes.client.Config",
            "io.vertx.core.impl.BlockedThreadChecker", "io.netty.channel.DefaultChannelPipeline",
            "com.sun.jna.Native", "io.micrometer.core.instrument.MeterRegistry");

    @AfterEach
    void clear() {
        System.clearProperty(AgentLogging.PROPERTY);
    }

    private static LoggerContext fromXml() throws Exception {
        LoggerContext xml = new LoggerContext();
        JoranConfigurator joran = new JoranConfigurator();
        joran.setContext(xml);
        joran.doConfigure(AgentLoggingTest.class.getResource("/logback.xml"));
        return xml;
    }

    @Test
    void theAgentLogsAtTheLevelsOfTheCommandLinesXml() throws Exception {
        LoggerContext xml = fromXml();
        LoggerContext code = new LoggerContext();
        AgentLogging.apply(code);
        List<String> names = new ArrayList<>(NAMES);
        names.addAll(AgentLogging.LEVELS.keySet());
        for (String name : names) {
            assertThat(code.getLogger(name).getEffectiveLevel()).as(name)
                    .isEqualTo(xml.getLogger(name).getEffectiveLevel());
        }
        assertThat(code.getLogger("me.loutres.juneau.agent.NodeAgent").getEffectiveLevel()).isEqualTo(Level.INFO);
    }

    @Test
    void theAgentPrintsTheCommandLinesLineOnStderr() throws Exception {
        LoggerContext code = new LoggerContext();
        AgentLogging.apply(code);
        ConsoleAppender<ILoggingEvent> ours = (ConsoleAppender<ILoggingEvent>) code.getLogger("ROOT")
                .getAppender("STDERR");
        ConsoleAppender<ILoggingEvent> theirs = (ConsoleAppender<ILoggingEvent>) fromXml().getLogger("ROOT")
                .getAppender("STDERR");
        assertThat(ours.getTarget()).isEqualTo(theirs.getTarget()).isEqualTo("System.err");
        assertThat(((PatternLayoutEncoder) ours.getEncoder()).getPattern())
                .isEqualTo(((PatternLayoutEncoder) theirs.getEncoder()).getPattern().strip());
    }

    @Test
    void onlyAJvmStartedWithTheAgentsFlagIsConfiguredInCode() {
        AgentLogging logging = new AgentLogging();
        LoggerContext context = new LoggerContext();
        assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger("ROOT").getAppender("STDERR")).as("nothing configured").isNull();

        assertThat(AgentJvm.FLAGS).contains("-D" + AgentLogging.PROPERTY + "=" + AgentLogging.AGENT);
        System.setProperty(AgentLogging.PROPERTY, AgentLogging.AGENT);
        assertThat(logging.configure(context)).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        assertThat(context.getLogger("ROOT").getAppender("STDERR")).isNotNull();
    }
}
