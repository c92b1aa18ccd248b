package me.loutres.juneau.webhook.server;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Gives {@code juneau webhook} and the deployed WAR the webhook's logging when nobody configured logback: without it logback's default
 * prints every library's DEBUG lines. An explicit {@code logback.xml}, {@code logback-test.xml} or
 * {@code -Dlogback.configurationFile} always wins. The configuration is {@code logback-webhook.xml}'s, set up in code
 * ({@link ShippedLogging}: the XML's parsing was a large part of the start-up).
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
        context.reset();
        ShippedLogging.apply(context);
    }
}
