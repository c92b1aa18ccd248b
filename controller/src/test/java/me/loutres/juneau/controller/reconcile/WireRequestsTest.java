package me.loutres.juneau.controller.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancerSpec;
import me.loutres.juneau.plan.ServicePlanner;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.runtime.Term;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests {@link WireRequests} sends for each write (verb, URL, content type, body, timeout) and what it makes
 * of the answers, on fabric8's HTTP client interface with the answers given by the test: a success is read into the
 * kind's class, a refusal becomes the KubernetesClientException (code, Status) fabric8's DSL throws, and nothing is
 * sent once the term has ended.
 */
class WireRequestsTest {
    private static final String SERVER = "https://127.0.0.1:6443";
    private static final String CRDS = SERVER + "/apis/juneau.loutres.me/v1alpha1";

    private final KubernetesSerialization json = new KubernetesSerialization();
    private final HttpClient http = mock(HttpClient.class);
    private final List<StandardHttpRequest> sent = new ArrayList<>();
    private final List<HttpResponse<byte[]>> answers = new ArrayList<>();
    private final AtomicLong nanos = new AtomicLong();
    /** A leader's term of 10 s on a clock the test moves. */
    private final Term term = new Term(1, nanos::get, Duration.ofSeconds(10), 0);
    private WireRequests wire;

    @BeforeEach
    void setUp() throws Exception {
        KubernetesClient client = mock(KubernetesClient.class);
        when(client.getHttpClient()).thenReturn(http);
        when(client.getKubernetesSerialization()).thenReturn(json);
        when(client.getMasterUrl()).thenReturn(new URL(SERVER + "/"));
        Config config = new ConfigBuilder(Config.empty()).withRequestTimeout(7_000).build();
        when(client.getConfiguration()).thenReturn(config);
        when(http.newHttpRequestBuilder()).thenAnswer(i -> new StandardHttpRequest.Builder());
        when(http.sendAsync(any(), any())).thenAnswer(i -> {
            sent.add(i.getArgument(0));
            return CompletableFuture.completedFuture(answers.remove(0));
        });
        wire = new WireRequests(client);
    }

    /** The answer to the next request. */
    private void answer(int code, String body) {
        answers.add(new Answer(code, body == null ? null : body.getBytes(StandardCharsets.UTF_8)));
    }

    private String lastBody() {
        return ((StandardHttpRequest.StringBodyContent) sent.get(sent.size() - 1).body()).getContent();
    }

    private static ServiceLoadBalancer slb() {
        ServiceLoadBalancer slb = new ServiceLoadBalancer();
        slb.getMetadata().setNamespace("shop");
        slb.getMetadata().setName("web");
        slb.setSpec(new ServiceLoadBalancerSpec());
        return slb;
    }

    private static Service service() {
        return new ServiceBuilder().withNewMetadata().withNamespace("shop").withName("web").withResourceVersion("41")
                .endMetadata().withNewStatus().withNewLoadBalancer().addNewIngress().withIp("198.18.0.1")
                .endIngress().endLoadBalancer().endStatus().build();
    }

    @Test
    void createPostsTheObjectToItsNamespacedCollectionAndReadsTheAnswerIntoTheKindsClass() {
        ServiceLoadBalancer body = slb();
        ServiceLoadBalancer stored = slb();
        stored.getMetadata().setResourceVersion("7");
        stored.getMetadata().setUid("u-1");
        answer(201, json.asJson(stored));

        ServiceLoadBalancer written = wire.create(term, WrittenKind.namespaced(ServiceLoadBalancer.class, null), body);

        StandardHttpRequest request = sent.get(0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.uri()).hasToString(CRDS + "/namespaces/shop/serviceloadbalancers");
        assertThat(request.getContentType()).isEqualTo(WireRequests.JSON);
        assertThat(json.unmarshal(lastBody(), ServiceLoadBalancer.class)).isEqualTo(body);
        assertThat(written).isInstanceOf(ServiceLoadBalancer.class).isEqualTo(stored);
    }

    @Test
    void updatePutsAClusterScopedObjectAtItsNameWithTheResourceVersionItWasReadAt() {
        ARPAdvertisement arp = ServicePlanner.advertisement("shop", "web", "net", "198.18.0.1", "node-a");
        arp.getMetadata().setResourceVersion("12");
        answer(200, json.asJson(arp));

        wire.update(term, WrittenKind.clusterScoped(ARPAdvertisement.class, null), arp);

        assertThat(sent.get(0).method()).isEqualTo("PUT");
        assertThat(sent.get(0).uri()).hasToString(CRDS + "/arpadvertisements/" + arp.getMetadata().getName());
        assertThat(json.unmarshal(lastBody(), ARPAdvertisement.class).getMetadata().getResourceVersion())
                .isEqualTo("12");
    }

    @Test
    void aCoreKindsStatusGoesToTheStatusSubresourceUnderApiV1() {
        Service svc = service();
        answer(200, json.asJson(svc));

        Service written = wire.updateStatus(term, WrittenKind.namespaced(Service.class, null), svc);

        assertThat(sent.get(0).method()).isEqualTo("PUT");
        assertThat(sent.get(0).uri()).hasToString(SERVER + "/api/v1/namespaces/shop/services/web/status");
        assertThat(json.unmarshal(lastBody(), Service.class)).isEqualTo(svc);
        assertThat(written.getStatus().getLoadBalancer().getIngress().get(0).getIp()).isEqualTo("198.18.0.1");
    }

    @Test
    void aMergePatchIsSentAsGivenWithItsContentType() {
        Event target = new EventBuilder().withNewMetadata().withNamespace("shop").withName("web.1").endMetadata()
                .build();
        answer(200, json.asJson(target));
        String patch = "{\"lastTimestamp\":\"2026-01-02T00:00:00Z\"}";

        wire.mergePatch(term, WrittenKind.untracked(Event.class), target, patch);

        assertThat(sent.get(0).method()).isEqualTo("PATCH");
        assertThat(sent.get(0).uri()).hasToString(SERVER + "/api/v1/namespaces/shop/events/web.1");
        assertThat(sent.get(0).getContentType()).isEqualTo(WireRequests.MERGE_PATCH);
        assertThat(lastBody()).isEqualTo(patch);
    }

    @Test
    void refusalsBecomeTheDslsExceptionWithTheServersCodeAndStatus() {
        var kind = WrittenKind.namespaced(ServiceLoadBalancer.class, null);
        for (int code : new int[] {409, 404, 422, 403}) {
            answer(code, json.asJson(new StatusBuilder().withStatus("Failure").withCode(code)
                    .withReason("Reason" + code).withMessage("refused with " + code).build()));
            assertThatThrownBy(() -> wire.update(term, kind, slb())).as("code %d", code)
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(code);
                        assertThat(e.getStatus().getMessage()).isEqualTo("refused with " + code);
                        assertThat(e.getStatus().getReason()).isEqualTo("Reason" + code);
                    });
        }
        answer(500, "not JSON");
        assertThatThrownBy(() -> wire.update(term, kind, slb()))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(500));
    }

    @Test
    void aFailureWithoutAnAnswerIsAKubernetesClientException() {
        doReturn(CompletableFuture.failedFuture(new IOException("reset"))).when(http).sendAsync(any(), any());

        assertThatThrownBy(() -> wire.create(term, WrittenKind.namespaced(ServiceLoadBalancer.class, null), slb()))
                .isInstanceOf(KubernetesClientException.class).hasRootCauseInstanceOf(IOException.class);
    }

    @Test
    void eachRequestIsBoundedByTheTimeLeftInTheTermAndATermWithoutDeadlineKeepsTheClientsTimeout() {
        var kind = WrittenKind.namespaced(ServiceLoadBalancer.class, null);
        nanos.set(Duration.ofSeconds(8).toNanos());
        answer(201, json.asJson(slb()));
        wire.create(term, kind, slb());
        assertThat(sent.get(0).getTimeout()).isEqualTo(Duration.ofSeconds(2));

        answer(201, json.asJson(slb()));
        wire.create(new Term(2), kind, slb());
        assertThat(sent.get(1).getTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void nothingIsSentOnceTheTermHasEnded() {
        nanos.set(Duration.ofSeconds(11).toNanos());

        assertThatThrownBy(() -> wire.create(term, WrittenKind.namespaced(ServiceLoadBalancer.class, null), slb()))
                .isInstanceOf(LostLeadershipException.class);
        verify(http, never()).sendAsync(any(), any());
    }

    /** An answer from the server. */
    private record Answer(int code, byte[] body) implements HttpResponse<byte[]> {
        @Override
        public HttpRequest request() {
            return null;
        }

        @Override
        public Optional<HttpResponse<?>> previousResponse() {
            return Optional.empty();
        }

        @Override
        public List<String> headers(String key) {
            return List.of();
        }

        @Override
        public Map<String, List<String>> headers() {
            return Map.of();
        }
    }
}
