package me.loutres.juneau.tls;

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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * fabric8's vert.x HTTP client, offering the cipher suites the JDK enables rather than netty's shorter list, which
 * fabric8 takes and which has no ChaCha20-Poly1305; in a JVM without the optimising compiler they are offered in
 * {@link CipherOrder}'s order (ChaCha20-Poly1305 first), so a server that heeds the client's preference picks it too.
 * Everything else (trust, keys, protocols) is fabric8's own SSL context. Why it matters: without C2 ({@code juneau
 * up}, the controller) AES-GCM runs as plain Java; these clients' connections were a third of {@code up}'s CPU, and
 * with ChaCha20 the controller's client threads cost about a fifth less (BENCHMARKS.md, "The controller's CPU per
 * new Service, third pass"); our own servers then pick ChaCha20 by their own order. With C2 the JDK's order stays
 * and servers keep preferring AES-GCM, so nothing changes there. Used by the local API server's clients and the
 * controller's.
 */
public final class JdkCipherSuitesClientFactory extends VertxHttpClientFactory {
    @Override
    protected void additionalConfig(WebClientOptions options) {
        SSLEngineOptions fabric8s = options.getSslEngineOptions();
        if (fabric8s == null) {
            return; // no TLS set up by fabric8: nothing to widen
        }
        SslContextFactory inner = fabric8s.sslContextFactory();
        Optional<Comparator<String>> order = CipherOrder.forThisJvm();
        options.setSslEngineOptions(new JdkSSLEngineOptions() {
            @Override
            public SslContextFactory sslContextFactory() {
                return () -> widened(inner.create(), order);
            }

            @Override
            public JdkSSLEngineOptions copy() {
                return this;
            }
        });
    }

    /**
     * The same SSL context and protocols, with the JDK's default cipher suites in the JDK's order, or sorted by
     * {@code order} (a stable sort: the JDK's order within each rank).
     */
    static SslContext widened(SslContext made, Optional<Comparator<String>> order) {
        if (!(made instanceof JdkSslContext jdk)) {
            return made;
        }
        SSLContext context = jdk.context();
        SSLEngine probe = jdk.newEngine(ByteBufAllocator.DEFAULT);
        String[] protocols = probe.getEnabledProtocols();
        List<String> suites = new ArrayList<>(List.of(context.getDefaultSSLParameters().getCipherSuites()));
        order.ifPresent(suites::sort);
        @SuppressWarnings("deprecation") // the constructor fabric8 itself uses
        JdkSslContext widened = new JdkSslContext(context, true, suites, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, protocols, false);
        return widened;
    }
}
