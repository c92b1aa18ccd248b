package me.loutres.juneau.cli.lan;

import static org.assertj.core.api.Assertions.assertThat;

import me.loutres.juneau.cli.demo.lan.ArpLab;
import org.junit.jupiter.api.Assumptions;

/**
 * What every namespace-LAN IT does around its lab: skip, saying why on stderr, where namespaces cannot be built;
 * remove the lab even when the test JVM is killed (a shutdown hook); and, at the end, close it and check that no
 * namespace is left behind.
 */
public final class LanGuard {
    private final AutoCloseable lan;
    private final ArpLab lab;
    private final Thread onKill;

    private LanGuard(AutoCloseable lan, ArpLab lab, String hookName) {
        this.lan = lan;
        this.lab = lab;
        this.onKill = new Thread(this::closeQuietly, hookName);
        Runtime.getRuntime().addShutdownHook(onKill);
    }

    /** Skips the test class when {@code reason} (the lab's unavailability) is not null. */
    public static void assumeAvailable(String test, String needs, String reason) {
        if (reason != null) {
            System.err.println("\n*** " + test + " SKIPPED: " + reason + " ***\n");
        }
        Assumptions.assumeTrue(reason == null, test + " needs " + needs + ": " + reason);
    }

    /** Guards a started lab: from here on, a killed test JVM still removes its namespaces and processes. */
    public static LanGuard of(AutoCloseable lan, ArpLab lab, String hookName) {
        return new LanGuard(lan, lab, hookName);
    }

    /** Closes the lab and checks it left no namespace behind. */
    public void close() {
        try {
            lan.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the LAN failed", e);
        }
        assertThat(lab.namespaces()).as("namespaces left behind").isEmpty();
        Runtime.getRuntime().removeShutdownHook(onKill);
    }

    private void closeQuietly() {
        try {
            lan.close();
        } catch (Exception e) {
            System.err.println("closing the LAN at exit failed: " + e);
        }
    }
}
