package me.loutres.juneau.webhook.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;

/**
 * The logging of {@code logback-included.xml} (the webhook's, and through the cli's {@code logback.xml} every
 * {@code juneau} command's), set up in code: logback's XML configuration builds and walks a model of the file through
 * a few hundred classes, about a quarter of the main thread's work before the webhook's first {@code /readyz}
 * (BENCHMARKS.md, "Webhook steady and cold"). The XML stays what an operator reads and names with
 * {@code -Dlogback.configurationFile}; ShippedLoggingTest holds the two equal.
 */
public final class ShippedLogging {
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %logger{0} - %msg%n";
    /** The one setting the XML reads from outside: the access log's level, by system property or environment. */
    static final String REQUESTS_LEVEL = "JUNEAU_LOG_REQUESTS";

    private ShippedLogging() {
    }

    /** Configures an empty (or just reset) context as the XML would. */
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

        level(context, "me.loutres.juneau.webhook.access", requestsLevel());
        level(context, "org.eclipse.jetty", Level.WARN);
        level(context, "io.fabric8", Level.WARN);
        // an informer's failed list or watch is retried, and fabric8 logs each retry with a stack trace; the webhook
        // says it once per change of state instead
        level(context, "io.fabric8.kubernetes.client.informers.impl.cache.Reflector", Level.OFF);
        // "unstable version v1alpha1" on the first use of our own API group is not news
        level(context, "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils", Level.ERROR);
        level(context, "okhttp3", Level.WARN);
        level(context, "io.vertx", Level.WARN);
        level(context, "io.netty", Level.WARN);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
    }

    private static void level(LoggerContext context, String logger, Level level) {
        context.getLogger(logger).setLevel(level);
    }

    /** {@code ${JUNEAU_LOG_REQUESTS:-INFO}} as logback resolves it: a system property first, then the environment. */
    private static Level requestsLevel() {
        String value = System.getProperty(REQUESTS_LEVEL);
        if (value == null) {
            value = System.getenv(REQUESTS_LEVEL);
        }
        // logback's own reading of a level attribute: an unknown name is DEBUG
        return value == null ? Level.INFO : Level.toLevel(value.strip());
    }
}
