package me.loutres.juneau.webhook;

import java.io.IOException;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.webhook.view.ClusterViewSource;

/** Builds the runtime of the real product: the shared-model rules engine over an opened cluster view. */
public final class WebhookRuntimes {
    public static final String VIEW_SYNCED = "cluster view synced";

    private WebhookRuntimes() {
    }

    public static WebhookRuntime create(AdmissionSettings settings, ClusterViewSource source, int maxBodyBytes)
            throws IOException {
        ClusterViewSource.Opened opened = source.open();
        WebhookRuntime runtime = new WebhookRuntime(new EngineReviewer(new AdmissionEngine(settings), opened.view()),
                AdmissionEngine.ENDPOINTS, maxBodyBytes);
        runtime.readiness().require(VIEW_SYNCED, opened.synced());
        runtime.closeOnStop(opened.closer());
        return runtime;
    }
}
