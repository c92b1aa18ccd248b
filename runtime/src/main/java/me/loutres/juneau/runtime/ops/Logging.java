package me.loutres.juneau.runtime.ops;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Without a logback configuration, logback logs everything at DEBUG (fabric8's HTTP traffic included). The
 * controller and the agent log one line per state change at INFO; this sets that level unless the operator
 * supplied a configuration of their own.
 */
public final class Logging {
    private Logging() {
    }

    public static void quietUnlessConfigured() {
        if (System.getProperty("logback.configurationFile") != null
                || Logging.class.getClassLoader().getResource("logback.xml") != null
                || Logging.class.getClassLoader().getResource("logback-test.xml") != null
                || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
            return;
        }
        quiet(ctx);
    }

    /** The levels themselves (also for tests that check what the shipped defaults print). */
    public static void quiet(LoggerContext ctx) {
        ctx.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        ctx.getLogger("io.fabric8").setLevel(Level.WARN);
        // "unstable version v1alpha1" on every first use of our own API group is not news
        ctx.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils").setLevel(Level.ERROR);
        // an unreachable API server is retried and said once by the server itself; fabric8 would print a stack
        // trace per informer and per retry (hundreds of lines for an expected outage)
        ctx.getLogger("io.fabric8.kubernetes.client.informers.impl.cache.Reflector").setLevel(Level.ERROR);
        ctx.getLogger("io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector").setLevel(Level.ERROR);
        ctx.getLogger("io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager").setLevel(Level.ERROR);
        ctx.getLogger("io.vertx").setLevel(Level.WARN);
        ctx.getLogger("io.netty").setLevel(Level.WARN);
    }
}
