package me.loutres.juneau.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.webhook.view.ClusterViewSource;
import org.junit.jupiter.api.Test;

/** The app that serves while its cluster view opens on another thread (start-up overlaps TLS and Jetty). */
class WebhookAssemblyTest {
    private static AdmissionRequest request() {
        AdmissionRequest request = new AdmissionRequest();
        request.setUid("u1");
        request.setOperation("DELETE");
        request.setName("pool-x");
        return request;
    }

    @Test
    void untilTheViewIsOpenReviewsAreRefusedWithAReasonAndReadinessNamesTheView() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        WebhookAssembly.Opening opening = WebhookAssembly.opening(AdmissionSettings.defaults(), () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ClusterViewSource.Opened.fixed(SnapshotClusterView.empty());
        }, 1024);
        WebhookApp app = opening.app();

        AdmissionResponse early = app.reviewer().review("/validate/addresspools", request());
        assertThat(early.getAllowed()).isFalse();
        assertThat(early.getStatus().getReason()).isEqualTo("ServiceUnavailable");
        assertThat(early.getStatus().getMessage()).contains("still loading its view of the cluster");
        assertThat(app.readiness().missing()).containsExactly(WebhookAssembly.VIEW_SYNCED);

        release.countDown();
        opening.opened().get(10, TimeUnit.SECONDS);
        assertThat(app.readiness().missing()).isEmpty();
        AdmissionResponse reviewed = app.reviewer().review("/validate/addresspools", request());
        assertThat(reviewed.getAllowed()).as("the rules answer: deleting an unlisted pool is allowed").isTrue();
        app.close();
    }

    @Test
    void aViewThatCannotOpenFailsTheOpeningWithItsOneLineReason() {
        WebhookAssembly.Opening opening = WebhookAssembly.opening(AdmissionSettings.defaults(), () -> {
            throw new IOException("cluster-state.yaml:3: not a map");
        }, 1024);
        assertThatThrownBy(() -> opening.opened().join()).isInstanceOf(CompletionException.class)
                .hasRootCauseMessage("cluster-state.yaml:3: not a map");
        assertThat(opening.app().readiness().missing()).containsExactly(WebhookAssembly.VIEW_SYNCED);
    }

    @Test
    void aViewThatFinishesOpeningAfterTheRuntimeClosedIsClosedAtOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        WebhookAssembly.Opening opening = WebhookAssembly.opening(AdmissionSettings.defaults(), () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new ClusterViewSource.Opened(SnapshotClusterView.empty(), () -> true, java.util.List::of,
                    closed::countDown);
        }, 1024);
        opening.app().close();
        release.countDown();
        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the late view was closed").isTrue();
    }
}
