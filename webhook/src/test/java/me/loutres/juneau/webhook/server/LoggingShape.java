package me.loutres.juneau.webhook.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import java.net.URL;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a logback configuration amounts to, as text to compare: every logger given a level, and each appender of every
 * logger with its class, target, pattern and whether it started. Two configurations with the same shape log the same
 * lines the same way.
 */
public final class LoggingShape {
    private LoggingShape() {
    }

    /** A fresh context configured from an XML file, as logback's own start would. */
    public static LoggerContext fromXml(URL xml) throws JoranException {
        LoggerContext context = new LoggerContext();
        JoranConfigurator joran = new JoranConfigurator();
        joran.setContext(context);
        joran.doConfigure(xml);
        return context;
    }

    public static Map<String, String> of(LoggerContext context) {
        Map<String, String> shape = new TreeMap<>();
        for (Logger logger : context.getLoggerList()) {
            if (logger.getLevel() != null) {
                shape.put("level " + logger.getName(), logger.getLevel().toString());
            }
            for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
                Appender<ILoggingEvent> appender = it.next();
                StringBuilder text = new StringBuilder(appender.getClass().getName()).append(" started=")
                        .append(appender.isStarted());
                if (appender instanceof ConsoleAppender<ILoggingEvent> console) {
                    text.append(" target=").append(console.getTarget());
                    if (console.getEncoder() instanceof PatternLayoutEncoder encoder) {
                        text.append(" pattern=").append(encoder.getPattern()).append(" encoderStarted=")
                                .append(encoder.isStarted());
                    }
                }
                shape.put("appender " + logger.getName() + "/" + appender.getName(), text.toString());
            }
        }
        return shape;
    }
}
