package me.loutres.juneau.agent.bgp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BIRD's stderr (its log: {@code log stderr}), read line by line into the agent's log, the last lines kept: when BIRD
 * refuses to start, its own words go into the start error the BGPSessions carry (docs/bgp.md), not only to a console
 * nobody reads.
 */
final class BirdOutput {
    private static final Logger LOG = LoggerFactory.getLogger("me.loutres.juneau.agent.bird");
    private static final int KEEP = 5;

    private final Deque<String> last = new ArrayDeque<>();
    private final Thread reader;

    private BirdOutput(Process p) {
        reader = new Thread(() -> read(p), "juneau-bird-output");
        reader.setDaemon(true);
    }

    static BirdOutput follow(Process p) {
        BirdOutput o = new BirdOutput(p);
        o.reader.start();
        return o;
    }

    private void read(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                LOG.info("{}", line);
                synchronized (last) {
                    if (last.size() == KEEP) {
                        last.removeFirst();
                    }
                    last.addLast(line);
                }
            }
        } catch (IOException e) {
            LOG.debug("BIRD's output: {}", e.getMessage());
        }
    }

    /** The last lines BIRD wrote, joined; waits a moment for the rest of the output of a BIRD that exited. */
    String lastLines() {
        try {
            reader.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (last) {
            return String.join("; ", last).strip();
        }
    }
}
