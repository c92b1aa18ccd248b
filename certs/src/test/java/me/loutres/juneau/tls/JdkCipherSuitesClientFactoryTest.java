package me.loutres.juneau.tls;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

class JdkCipherSuitesClientFactoryTest {
    /** The context fabric8's vert.x builder makes: netty's own cipher list, the protocols fabric8 asks for. */
    @SuppressWarnings("deprecation")
    private static JdkSslContext asFabric8MakesIt(SSLContext context) {
        return new JdkSslContext(context, true, null, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, new String[] {"TLSv1.3", "TLSv1.2"}, false);
    }

    private static SSLContext defaultContext() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        return context;
    }

    @Test
    void nettysListHasNoChaChaAndTheWidenedContextOffersTheJdksSuitesWithTheSameProtocolsAndContext()
            throws Exception {
        SSLContext context = defaultContext();
        JdkSslContext fabric8s = asFabric8MakesIt(context);
        SSLEngine before = fabric8s.newEngine(ByteBufAllocator.DEFAULT);
        assertThat(before.getEnabledCipherSuites()).noneMatch(s -> s.contains("CHACHA20"));

        SslContext widened = JdkCipherSuitesClientFactory.widened(fabric8s, Optional.empty());
        assertThat(widened).isInstanceOf(JdkSslContext.class);
        assertThat(((JdkSslContext) widened).context()).isSameAs(context);
        assertThat(widened.isClient()).isTrue();
        SSLEngine after = widened.newEngine(ByteBufAllocator.DEFAULT);
        assertThat(after.getEnabledCipherSuites())
                .containsExactly(context.getDefaultSSLParameters().getCipherSuites())
                .contains("TLS_CHACHA20_POLY1305_SHA256")
                .contains(before.getEnabledCipherSuites());
        assertThat(List.of(after.getEnabledProtocols())).containsExactlyInAnyOrder(before.getEnabledProtocols());
    }

    @Test
    void withoutTheOptimisingCompilerChaChaIsOfferedFirstAndTheSetOfSuitesStaysTheJdks() throws Exception {
        SSLContext context = defaultContext();
        SslContext widened = JdkCipherSuitesClientFactory.widened(asFabric8MakesIt(context),
                CipherOrder.forCompiler(false));

        String[] offered = widened.newEngine(ByteBufAllocator.DEFAULT).getEnabledCipherSuites();
        assertThat(offered).containsExactlyInAnyOrder(context.getDefaultSSLParameters().getCipherSuites());
        assertThat(offered[0]).isEqualTo("TLS_CHACHA20_POLY1305_SHA256");
        int lastChaCha = List.of(offered).lastIndexOf(List.of(offered).stream()
                .filter(s -> s.contains("CHACHA20")).reduce((a, b) -> b).orElseThrow());
        assertThat(List.of(offered).subList(0, lastChaCha + 1)).allMatch(s -> s.contains("CHACHA20"));
    }
}
