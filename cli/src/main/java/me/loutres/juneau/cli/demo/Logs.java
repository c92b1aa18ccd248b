package me.loutres.juneau.cli.demo;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Lowers the parts' logging to errors while the demo tells its own story. */
final class Logs {
    private Logs() {
    }

    static void quiet() {
        Logger root = LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(ch.qos.logback.classic.Level.ERROR);
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("me.loutres.juneau"))
                    .setLevel(ch.qos.logback.classic.Level.ERROR);
        }
    }
}
