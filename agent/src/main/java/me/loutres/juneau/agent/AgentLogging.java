package me.loutres.juneau.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The node agent's logging, configured in code: the command line's own configuration ({@code logback.xml}, the
 * webhook's included file) read by logback's XML configurator loads about 420 classes (logback's Joran and the JDK's
 * XML parser) that every node would keep in memory for one appender and a few levels (BENCHMARKS.md, "Node agent:
 * what one node pays"). Logback finds this class as a service and asks it first; it acts only in a JVM started with
 * {@value #PROPERTY}={@value #AGENT} ({@link AgentJvm#FLAGS}: the image, the DaemonSet, {@code bin/juneau agent}), so
 * every other command keeps its XML configuration. The output is the command line's: one line per state change on
 * stderr, libraries at WARN. An operator's {@code -Dlogback.configurationFile} still wins.
 */
public final class AgentLogging extends ContextAwareBase implements Configurator {
    /** The system property that selects this configuration. */
    public static final String PROPERTY = "juneau.logging";
    public static final String AGENT = "agent";
    /** The command line's pattern (its {@code logback.xml}). */
    public static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0} - %msg%n";
    /** The command line's levels, as its {@code logback.xml} gives them, for what the agent loads. */
    public static final Map<String, Level> LEVELS = Map.of(
            "io.fabric8", Level.WARN,
            // an informer's failed list or watch is retried and said once by the agent itself, not per retry
            "io.fabric8.kubernetes.client.informers.impl.cache.Reflector", Level.OFF,
            // "unstable version v1alpha1" on the first use of our own API group is not news
            "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils", Level.ERROR,
            "io.vertx", Level.WARN,
            "io.netty", Level.WARN);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (!AGENT.equals(System.getProperty(PROPERTY)) || System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        apply(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The appender and the levels (also for the test that compares them with the XML's). */
    public static void apply(LoggerContext context) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
    }
}
