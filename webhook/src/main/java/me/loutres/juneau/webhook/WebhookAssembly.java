package me.loutres.juneau.webhook;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/** Builds the app of the real product: the shared-model rules engine over an opened cluster view. */
public final class WebhookAssembly {
    public static final String VIEW_SYNCED = "cluster view synced";

    private WebhookAssembly() {
    }

    public static WebhookApp create(AdmissionSettings settings, ClusterViewSource source, int maxBodyBytes)
            throws IOException {
        ClusterViewSource.Opened opened = source.open();
        WebhookApp app = new WebhookApp(new EngineReviewer(new AdmissionEngine(settings), opened.view()),
                AdmissionEngine.ENDPOINTS, maxBodyBytes);
        app.readiness().require(VIEW_SYNCED, opened.synced());
        app.readiness().requireAlive(opened.stopped());
        app.closeOnStop(opened.closer());
        return app;
    }

    /** A app that serves at once while its view opens on another thread. */
    public record Opening(WebhookApp app, CompletableFuture<?> opened) {
    }

    /**
     * The app at once, its cluster view opened and its JSON codec built each on a thread of its own: reading a state
     * file or building a client overlaps TLS and HTTP start-up instead of following it. Until the view is open, readiness names it and a review
     * is refused with a reason (not allowed: fail closed); a view that cannot open completes {@code opened}
     * exceptionally with the one-line reason.
     */
    public static Opening opening(AdmissionSettings settings, ClusterViewSource source, int maxBodyBytes) {
        return opening(settings, source::open, maxBodyBytes);
    }

    /** How a view is opened; the exception message is one line for the operator. */
    @FunctionalInterface
    interface ViewOpener {
        ClusterViewSource.Opened open() throws IOException;
    }

    static Opening opening(AdmissionSettings settings, ViewOpener source, int maxBodyBytes) {
        CompletableFuture<Reviewer> reviewer = new CompletableFuture<>();
        WebhookApp app = new WebhookApp(new Deferred(reviewer), AdmissionEngine.ENDPOINTS, maxBodyBytes);
        // the codec's Jackson set-up (fabric8's serialization settings) and the view's opening share little but the
        // JDK, so each has a thread: on two cores the slower of the two, not their sum, is what ready waits for
        CompletableFuture<Void> codec = CompletableFuture.runAsync(() -> app.codec().prepare(),
                daemon("webhook-codec"));
        CompletableFuture<ClusterViewSource.Opened> opened = CompletableFuture.supplyAsync(() -> {
            try {
                return source.open();
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }, daemon("webhook-view-open"));
        // an opened view is the app's to close even if the codec failed
        CompletableFuture<Void> ready = opened.thenAccept(o -> app.closeOnStop(o.closer()))
                .thenCombine(codec, (viewClosable, prepared) -> prepared)
                .thenRun(() -> reviewer.complete(new EngineReviewer(new AdmissionEngine(settings),
                        opened.join().view())));
        app.readiness().require(VIEW_SYNCED, () -> ready.isDone() && !ready.isCompletedExceptionally()
                && opened.join().synced().getAsBoolean());
        app.readiness().requireAlive(() -> ready.isDone() && !ready.isCompletedExceptionally()
                ? opened.join().stopped().get() : List.of());
        return new Opening(app, ready);
    }

    private static java.util.concurrent.Executor daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            t.start();
        };
    }

    /** The reviewer once the view is open; before that a refusal that says why. */
    private record Deferred(CompletableFuture<Reviewer> reviewer) implements Reviewer {
        @Override
        public AdmissionResponse review(String path, AdmissionRequest request) {
            Reviewer ready = reviewer.getNow(null);
            if (ready != null) {
                return ready.review(path, request);
            }
            AdmissionResponse notYet = new AdmissionResponse();
            notYet.setAllowed(false);
            notYet.setStatus(new StatusBuilder().withStatus("Failure").withCode(503).withReason("ServiceUnavailable")
                    .withMessage("the Juneau webhook is still loading its view of the cluster; retry in a moment "
                            + "(/readyz answers 200 once it can review)").build());
            return notYet;
        }

        @Override
        public java.util.Optional<me.loutres.juneau.view.ClusterView> view() {
            Reviewer ready = reviewer.getNow(null);
            return ready == null ? java.util.Optional.empty() : ready.view();
        }
    }
}
