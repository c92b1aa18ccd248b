package me.loutres.juneau.webhook;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.Objects;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.view.ClusterView;

/** The rules engine of shared-model behind the envelope, reading one cluster view (informer cache or snapshot). */
public final class EngineReviewer implements Reviewer {
    private final AdmissionEngine engine;
    private final ClusterView view;

    public EngineReviewer(AdmissionEngine engine, ClusterView view) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.view = Objects.requireNonNull(view, "view");
    }

    @Override
    public AdmissionResponse review(String path, AdmissionRequest request) {
        return engine.review(path, request, view);
    }

    @Override
    public java.util.Optional<ClusterView> view() {
        return java.util.Optional.of(view);
    }
}
