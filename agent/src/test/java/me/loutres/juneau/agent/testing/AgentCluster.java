package me.loutres.juneau.agent.testing;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;

/**
 * A fabric8 mock API server in CRUD mode with the ARPAdvertisement CRD (status subresource on), a client for the
 * test and one for the agent, whose every request is recorded for the RBAC check.
 */
public final class AgentCluster implements AutoCloseable {
    public static final String AGENT_USER_AGENT = "juneau-agent-under-test";

    /** One request of the agent: method and path with query. */
    public record Request(String method, String path) {
    }

    /** Held so the level sticks: java.util.logging keeps loggers weakly. */
    private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver.MockWebServer");

    private final Queue<Request> requests = new ConcurrentLinkedQueue<>();
    /** Path parts whose writes by the agent are refused (403), as by RBAC or a webhook. */
    private final java.util.Set<String> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final List<KubernetesClient> agentClients = new java.util.ArrayList<>();

    public AgentCluster() {
        KubernetesCrudDispatcher dispatcher = new KubernetesCrudDispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (AGENT_USER_AGENT.equals(request.getHeader("User-Agent"))) {
                    requests.add(new Request(request.getMethod(), request.getPath()));
                    if (!"GET".equals(request.getMethod())
                            && refused.stream().anyMatch(p -> request.getPath().contains(p))) {
                        // as a webhook or RBAC denies it: 403 with a Status, nothing stored
                        return new MockResponse().setResponseCode(403).setBody("{\"kind\":\"Status\",\"apiVersion\""
                                + ":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403,"
                                + "\"message\":\"refused by the test for " + request.getPath().split("\\?")[0] + "\"}");
                    }
                }
                return super.dispatch(request);
            }
        };
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        client = server.createClient();
        @SuppressWarnings({"unchecked", "rawtypes"})
        CustomResourceDefinition crd = CustomResourceDefinitionContext
                .v1CRDFromCustomResourceType((Class) ARPAdvertisement.class)
                .editSpec().editFirstVersion().withNewSubresources().withNewStatus().endStatus().endSubresources()
                .endVersion().endSpec().build();
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        // the BGP half's kinds (docs/bgp.md), so the mock knows their scope and status subresources
        for (Class<?> kind : List.of(ServiceLoadBalancer.class, ExternalNetwork.class, BGPPeer.class,
                BFDProfile.class, BGPSession.class, me.loutres.juneau.api.v1alpha1.NodeNetwork.class)) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            CustomResourceDefinition d = CustomResourceDefinitionContext.v1CRDFromCustomResourceType((Class) kind)
                    .editSpec().editFirstVersion().withNewSubresources().withNewStatus().endStatus()
                    .endSubresources().endVersion().endSpec().build();
            client.apiextensions().v1().customResourceDefinitions().resource(d).create();
        }
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger l = java.util.logging.Logger.getLogger(name);
        l.setLevel(java.util.logging.Level.WARNING);
        return l;
    }

    public KubernetesClient client() {
        return client;
    }

    public KubernetesClient newAgentClient() {
        KubernetesClient c = server.createClient(b -> b.editOrNewConfig().withUserAgent(AGENT_USER_AGENT)
                .withRequestRetryBackoffLimit(0).endConfig());
        agentClients.add(c);
        return c;
    }

    /** From now on the agent's writes (not reads) to paths containing {@code pathPart} are refused with a 403. */
    public void refuseAgentWrites(String pathPart) {
        refused.add(pathPart);
    }

    public List<Request> agentRequests() {
        return List.copyOf(requests);
    }

    /** The metadata.uid of the Service {@code default/<service>} in these tests' advertisements. */
    public static String serviceUid(String service) {
        return "uid-of-" + service;
    }

    /** Creates the advertisement as the controller would: labels for its Service (with its uid) and node. */
    public ARPAdvertisement advertise(String service, String vip, String node) {
        ARPAdvertisement a = new ARPAdvertisement();
        a.setMetadata(new ObjectMetaBuilder().withName(JuneauConstants.arpAdvertisementName("default", service))
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAMESPACE, "default")
                .addToLabels(JuneauConstants.LABEL_SERVICE_NAME, service)
                .addToLabels(JuneauConstants.LABEL_SERVICE_UID, serviceUid(service))
                .addToLabels(JuneauConstants.LABEL_NODE, node).build());
        a.setSpec(new ARPAdvertisementSpec("l2", vip, node));
        return client.resources(ARPAdvertisement.class).resource(a).create();
    }

    /**
     * Stores an advertisement labelled for {@code node} whose body after metadata is {@code rest} as given (e.g.
     * {@code "spec":{"address":{"x":1}}}): the mock, unlike a real API server, checks no schema, so a damaged object
     * reaches the agent as any broken or hostile writer could make it.
     */
    public void advertiseRaw(String name, String node, String rest) {
        String json = "{\"apiVersion\":\"" + JuneauConstants.API_VERSION + "\",\"kind\":\"ARPAdvertisement\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"" + JuneauConstants.LABEL_NODE + "\":\""
                + node + "\"}}," + rest + "}";
        client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(ARPAdvertisement.class))
                .resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal(json,
                        io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).create();
    }

    /** Moves an advertisement as the controller does: nodeName and the node label in one write. */
    public void move(String service, String node) {
        // the agent writes status meanwhile: re-read and retry on 409, as the controller does
        for (int attempt = 0; ; attempt++) {
            try {
                client.resources(ARPAdvertisement.class)
                        .withName(JuneauConstants.arpAdvertisementName("default", service)).edit(a -> {
                            a.getSpec().setNodeName(node);
                            a.getMetadata().getLabels().put(JuneauConstants.LABEL_NODE, node);
                            return a;
                        });
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 10) {
                    throw e;
                }
            }
        }
    }

    public ARPAdvertisement get(String service) {
        return client.resources(ARPAdvertisement.class)
                .withName(JuneauConstants.arpAdvertisementName("default", service)).get();
    }

    @Override
    public void close() {
        agentClients.forEach(KubernetesClient::close);
        client.close();
        server.destroy();
    }
}
