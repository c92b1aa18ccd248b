package me.loutres.juneau.tls;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.Optional;

/**
 * The order in which a server of ours prefers the TLS cipher suites the JDK enables. AES-GCM is fast only where the
 * optimizing compiler (C2) turns it into the processor's AES and carry-less multiply instructions. A JVM that runs
 * without C2 ({@code -XX:TieredStopAtLevel=1}, as {@code juneau up} and {@code demo} do, since compiling costs them
 * more than it saves) runs AES-GCM as plain Java: measured at 21 MB/s for AES-256-GCM against 93 MB/s for
 * ChaCha20-Poly1305 in the same C1-only JVM (and 1,300 against 200 MB/s with C2). So such a JVM puts ChaCha20-Poly1305
 * first, then AES-128-GCM; with C2 the JDK's own order stays. The set of suites never changes, only their order: every client that
 * spoke to us before still can.
 */
public final class CipherOrder {
    private CipherOrder() {
    }

    /** The order for this JVM, or empty to keep the JDK's. */
    public static Optional<Comparator<String>> forThisJvm() {
        return forCompiler(optimizingCompilerRuns());
    }

    /** ChaCha20-Poly1305 suites first when there is no optimizing compiler; otherwise nothing to change. */
    static Optional<Comparator<String>> forCompiler(boolean optimizing) {
        if (optimizing) {
            return Optional.empty();
        }
        // then AES-128 before AES-256 (10 rounds instead of 14), for clients that offer no ChaCha20 (fabric8's
        // vert.x client takes netty's list, which has none); a stable sort keeps the JDK's order within each rank
        return Optional.of(Comparator.comparingInt(suite -> suite.contains("CHACHA20") ? 0
                : suite.contains("AES_128_GCM") ? 1 : 2));
    }

    /** False when the JVM was told to stop below C2 (the only way a HotSpot JVM runs without it). */
    static boolean optimizingCompilerRuns() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm == null || !vm.getVMOption("TieredCompilation").getValue().equals("true")
                    || Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()) >= 4;
        } catch (RuntimeException e) {
            return true; // not HotSpot: its compiler is unknown, keep the JDK's order
        }
    }
}
