package me.loutres.juneau.admission;

import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.policy.ManagedServices;
import me.loutres.juneau.view.ClusterView;

/** docs/admission.md: the mutating webhook of managed Services. Non-managed Services are never touched. */
final class ServiceMutation implements KindRules {
    static final String LOCAL = "Local";
    private final ManagedServices managed;

    ServiceMutation(ManagedServices managed) {
        this.managed = managed;
    }

    @Override
    public Verdict review(Review review, ClusterView view) {
        Verdict verdict = Verdict.allow();
        ServiceFields service = ServiceRules.writtenService(review);
        if (service == null || !managed.manages(service.type(), service.loadBalancerClass())) {
            return verdict;
        }
        // CREATE and UPDATE: the API server defaults an omitted policy to Cluster on every write (a kubectl replace of a
        // manifest without the field), so an explicit Cluster cannot be told apart from none; the warning shows it
        String policy = service.externalTrafficPolicy();
        if (policy == null || "Cluster".equals(policy)) {
            String path = JsonPatch.pointer("spec", "externalTrafficPolicy");
            verdict.patch(policy == null ? JsonPatch.add(path, LOCAL) : JsonPatch.replace(path, LOCAL));
            verdict.warn("spec.externalTrafficPolicy was set to Local (it was "
                    + (policy == null ? "not set" : "Cluster, the API server's default when it is omitted")
                    + "): Juneau announces a VIP only from nodes with a local ready backend; write "
                    + "externalTrafficPolicy: Local in the manifest to stop seeing this warning (and the drift GitOps tools show, "
                    + "docs/ci.md)");
        }
        Map<String, String> annotations = service.ourAnnotations();
        for (String key : List.of(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, JuneauConstants.ANNOTATION_REQUESTED_IP)) {
            String value = annotations.get(key);
            if (value != null && !value.equals(value.trim())) {
                verdict.patch(JsonPatch.replace(JsonPatch.pointer("metadata", "annotations", key), value.trim()));
            }
        }
        return verdict;
    }
}
