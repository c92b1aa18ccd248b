package me.loutres.juneau.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import me.loutres.juneau.webhook.server.ShippedLogging;

/**
 * Every {@code juneau} command's logging, the cli's {@code logback.xml}, set up in code: logback asks the configurators
 * registered as services before it looks for a file, and reading the XML was about a quarter of the main thread's work
 * before the webhook's first {@code /readyz} (BENCHMARKS.md, "Webhook steady and cold"). A configuration someone
 * chose still wins: {@code -Dlogback.configurationFile} (the demo's processes name the cli's own {@code logback.xml}
 * that way) or a {@code logback-test.xml} on the class path; then logback goes on to read it as before. A process a
 * test starts on its own class path that must log as shipped (the namespace-LAN agents, whose footprint is measured)
 * sets {@value #SHIPPED}=true, which passes over {@code logback-test.xml}. The node agent logs through this too: the
 * XML configurator's ~420 classes were memory every node kept (BENCHMARKS.md, "Node agent: what one node pays").
 * CodedLoggingTest holds this equal to {@code logback.xml}.
 */
public final class CodedLogging extends ContextAwareBase implements Configurator {
    /** The system property that makes a process started on a test class path log as the jars do. */
    public static final String SHIPPED = "juneau.logging.shipped";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        return configure(context, System.getProperty("logback.configurationFile"), CodedLogging.class.getClassLoader());
    }

    ExecutionStatus configure(LoggerContext context, String configurationFileProperty, ClassLoader classPath) {
        if (fileChosen(configurationFileProperty, classPath)) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        ShippedLogging.apply(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Whether logback should read a file instead: one named by the property, or a test configuration on the path. */
    static boolean fileChosen(String configurationFileProperty, ClassLoader classPath) {
        return configurationFileProperty != null
                || (!Boolean.getBoolean(SHIPPED) && classPath.getResource("logback-test.xml") != null);
    }
}
