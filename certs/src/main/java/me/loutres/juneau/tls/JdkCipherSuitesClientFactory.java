package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.SSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;
import io.vertx.ext.web.client.WebClientOptions;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * fabric8's vert.x HTTP client, offering the cipher suites the JDK enables rather than netty's shorter list, which
 * fabric8 takes and which has no ChaCha20-Poly1305. Everything else (trust, keys, protocols) is fabric8's own SSL
 * context. Why it matters: in a JVM without the optimising compiler ({@code juneau up}) AES-GCM runs as plain Java,
 * and these clients' connections were a third of the stack's CPU; the server then picks ChaCha20 (see
 * {@link me.loutres.juneau.tls.CipherOrder}). With C2 the server keeps preferring AES-GCM, so nothing changes there.
 */
final class JdkCipherSuitesClientFactory extends VertxHttpClientFactory {
    @Override
    protected void additionalConfig(WebClientOptions options) {
        SSLEngineOptions fabric8s = options.getSslEngineOptions();
        if (fabric8s == null) {
            return; // no TLS set up by fabric8: nothing to widen
        }
        SslContextFactory inner = fabric8s.sslContextFactory();
        options.setSslEngineOptions(new JdkSSLEngineOptions() {
            @Override
            public SslContextFactory sslContextFactory() {
                return () -> widened(inner.create());
            }

            @Override
            public JdkSSLEngineOptions copy() {
                return this;
            }
        });
    }

    /** The same SSL context and protocols, with the JDK's default cipher suites in the JDK's order. */
    static SslContext widened(SslContext made) {
        if (!(made instanceof JdkSslContext jdk)) {
            return made;
        }
        SSLContext context = jdk.context();
        SSLEngine probe = jdk.newEngine(ByteBufAllocator.DEFAULT);
        String[] protocols = probe.getEnabledProtocols();
        List<String> suites = List.of(context.getDefaultSSLParameters().getCipherSuites());
        @SuppressWarnings("deprecation") // the constructor fabric8 itself uses
        JdkSslContext widened = new JdkSslContext(context, true, suites, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, protocols, false);
        return widened;
    }
}
