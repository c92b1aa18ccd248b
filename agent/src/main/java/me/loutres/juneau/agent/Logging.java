package me.loutres.juneau.agent;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Without a logback configuration, logback logs everything at DEBUG (fabric8's HTTP traffic included). The
 * agent logs one line per state change at INFO; this sets that level unless the operator supplied a
 * configuration of their own.
 */
final class Logging {
    private Logging() {
    }

    static void quietUnlessConfigured() {
        if (System.getProperty("logback.configurationFile") != null
                || Logging.class.getClassLoader().getResource("logback.xml") != null
                || Logging.class.getClassLoader().getResource("logback-test.xml") != null
                || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        ctx.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        ctx.getLogger("io.fabric8").setLevel(Level.WARN);
        // "unstable version v1alpha1" on every first use of our own API group is not news
        ctx.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils").setLevel(Level.ERROR);
        ctx.getLogger("io.vertx").setLevel(Level.WARN);
        ctx.getLogger("io.netty").setLevel(Level.WARN);
    }
}
