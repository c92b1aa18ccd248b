package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

class CipherOrderTest {
    @Test
    void withoutTheOptimizingCompilerChaChaComesFirstAndNothingIsAddedOrDropped() throws Exception {
        List<String> jdk = List.of(SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites());
        List<String> ordered = new ArrayList<>(jdk);
        ordered.sort(CipherOrder.forCompiler(false).orElseThrow());

        assertThat(ordered).containsExactlyInAnyOrderElementsOf(jdk);
        assertThat(ordered.get(0)).isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
        int lastChaCha = 0;
        for (int i = 0; i < ordered.size(); i++) {
            lastChaCha = ordered.get(i).contains("CHACHA20") ? i : lastChaCha;
        }
        assertThat(ordered.subList(0, lastChaCha + 1)).allMatch(s -> s.contains("CHACHA20"));
        // then the AES-128-GCM suites, then the rest, each in the JDK's relative order
        List<String> aes128 = jdk.stream().filter(s -> s.contains("AES_128_GCM")).toList();
        assertThat(aes128).contains("TLS_AES_128_GCM_SHA256");
        assertThat(ordered.subList(lastChaCha + 1, lastChaCha + 1 + aes128.size())).containsExactlyElementsOf(aes128);
        assertThat(ordered.subList(lastChaCha + 1 + aes128.size(), ordered.size())).containsExactlyElementsOf(
                jdk.stream().filter(s -> !s.contains("CHACHA20") && !s.contains("AES_128_GCM")).toList());
    }

    @Test
    void withTheOptimizingCompilerTheJdksOrderStays() {
        assertThat(CipherOrder.forCompiler(true)).isEmpty();
    }

    @Test
    void thisTestJvmRunsTheOptimizingCompiler() {
        // surefire forks a default JVM: tiered up to C2
        assertThat(CipherOrder.optimizingCompilerRuns()).isTrue();
        assertThat(CipherOrder.forThisJvm()).isEmpty();
    }
}
