package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import java.util.List;
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

    @Test
    void nettysListHasNoChaChaAndTheWidenedContextOffersTheJdksSuitesWithTheSameProtocolsAndContext()
            throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        JdkSslContext fabric8s = asFabric8MakesIt(context);
        SSLEngine before = fabric8s.newEngine(ByteBufAllocator.DEFAULT);
        assertThat(before.getEnabledCipherSuites()).noneMatch(s -> s.contains("CHACHA20"));

        SslContext widened = JdkCipherSuitesClientFactory.widened(fabric8s);
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
}
