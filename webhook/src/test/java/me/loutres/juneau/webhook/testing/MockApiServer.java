package me.loutres.juneau.webhook.testing;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.testing.Kubeconfigs;

/**
 * fabric8's CRUD mock API server with Juneau's CRDs, on loopback and a port chosen once, so a test can stop it (an
 * outage) and start a new one at the same address (the API server coming back, with an empty store) and a client
 * configured once reaches both.
 */
public final class MockApiServer implements AutoCloseable {
    private static final List<Class<? extends CustomResource<?, ?>>> KINDS = List.of(AddressPool.class,
            ExternalNetwork.class, ServiceLoadBalancer.class, ARPAdvertisement.class, BGPPeer.class, BFDProfile.class,
            BGPSession.class);

    private final int port;
    private KubernetesMockServer server;

    public MockApiServer(int port) {
        this.port = port;
    }

    /** A free loopback port now (it may be taken by the time it is used, as with any such probe). */
    public static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public synchronized MockApiServer start() throws IOException {
        if (server != null) {
            return this;
        }
        KubernetesMockServer s = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(KINDS.stream()
                        .map(k -> CustomResourceDefinitionContext.fromCustomResourceType(k)).toList()), false);
        s.init(InetAddress.getByName("127.0.0.1"), port);
        server = s;
        try (KubernetesClient client = s.createClient()) {
            installCrds(client);
        }
        return this;
    }

    /** Creates Juneau's CRDs in the API server {@code client} reaches, so that its kinds can be listed and watched. */
    public static void installCrds(KubernetesClient client) {
        for (Class<? extends CustomResource<?, ?>> type : KINDS) {
            client.apiextensions().v1().customResourceDefinitions()
                    .resource(CustomResourceDefinitionContext.v1CRDFromCustomResourceType(type).build()).create();
        }
    }

    /** A client of this server (the caller closes it). */
    public synchronized KubernetesClient client() {
        return server.createClient();
    }

    public synchronized void stop() {
        if (server != null) {
            server.destroy();
            server = null;
        }
    }

    public synchronized boolean running() {
        return server != null;
    }

    /** A kubeconfig file naming this server, as {@code --kubeconfig} reads it. */
    public Path writeKubeconfig(Path file) throws IOException {
        return Kubeconfigs.write(file, url());
    }

    @Override
    public void close() {
        stop();
    }
}
