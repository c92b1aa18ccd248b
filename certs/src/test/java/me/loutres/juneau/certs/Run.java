package me.loutres.juneau.certs;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import picocli.CommandLine;

/** Runs {@code juneau certs ...} in-process and captures what it prints. */
record Run(int exit, String out, String err) {
    static Run certs(ClientFactory clients, Instant now, String... args) {
        CommandLine cl = CertsCommand.commandLine(clients, Clock.fixed(now, ZoneOffset.UTC));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static Run certs(String... args) {
        return certs(k -> {
            throw new AssertionError("no API client expected");
        }, Instant.now(), args);
    }

    String all() {
        return out + err;
    }
}
