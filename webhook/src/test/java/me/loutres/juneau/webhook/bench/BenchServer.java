package me.loutres.juneau.webhook.bench;

import me.loutres.juneau.webhook.server.WebhookCommand;
import picocli.CommandLine;

/** {@code juneau webhook} as its own process for the load generator (same code path as bin/juneau webhook). */
public final class BenchServer {
    private BenchServer() {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new WebhookCommand()).execute(args));
    }
}
