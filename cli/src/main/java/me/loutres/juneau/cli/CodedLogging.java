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
 * that way) or a {@code logback-test.xml} on the class path; then logback goes on to read it as before.
 * CodedLoggingTest holds this equal to {@code logback.xml}.
 */
public final class CodedLogging extends ContextAwareBase implements Configurator {
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
        return configurationFileProperty != null || classPath.getResource("logback-test.xml") != null;
    }
}
