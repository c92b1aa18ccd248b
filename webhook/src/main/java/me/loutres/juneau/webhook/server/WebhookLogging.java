package me.loutres.juneau.webhook.server;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import java.io.InputStream;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Gives {@code juneau webhook} and the deployed WAR the webhook's logging when nobody configured logback: without it logback's default
 * prints every library's DEBUG lines. An explicit {@code logback.xml}, {@code logback-test.xml} or
 * {@code -Dlogback.configurationFile} always wins.
 */
public final class WebhookLogging {
    static final String CONFIG = "/me/loutres/juneau/webhook/logback-webhook.xml";

    private WebhookLogging() {
    }

    public static void configureUnlessConfigured() {
        ClassLoader cl = WebhookLogging.class.getClassLoader();
        if (System.getProperty("logback.configurationFile") != null || cl.getResource("logback.xml") != null
                || cl.getResource("logback-test.xml") != null) {
            return;
        }
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return;
        }
        try (InputStream in = WebhookLogging.class.getResourceAsStream(CONFIG)) {
            if (in == null) {
                return;
            }
            context.reset();
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(in);
        } catch (JoranException | java.io.IOException e) {
            System.err.println("juneau webhook: the built-in logging configuration could not be loaded (" + e.getMessage() + ")");
        }
    }
}
