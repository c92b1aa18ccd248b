package me.loutres.juneau.certs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Puts a CA bundle into the {@code clientConfig.caBundle} of every webhook of the named Validating and Mutating
 * webhook configurations. Uses update with the read resourceVersion (retrying on 409), so a concurrent edit is
 * never overwritten, and writes nothing when the bundle is already there.
 */
public final class CaBundleInjector {
    private static final int ATTEMPTS = 5;

    /** What happened to one configuration. */
    public record Outcome(String kind, String name, int webhooks, boolean changed) {
        @Override
        public String toString() {
            return kind + " " + name + ": " + (changed ? "caBundle set on " + webhooks + " webhook(s)"
                    : "caBundle already up to date on " + webhooks + " webhook(s)");
        }
    }

    private final KubernetesClient client;

    public CaBundleInjector(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Injects {@code caBundleBase64} into every configuration (validating or mutating) of each name. Checks first that
     * each name exists, so a typo changes nothing.
     */
    public List<Outcome> inject(List<String> names, String caBundleBase64) throws CommandFailedException {
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            try {
                if (validating().withName(name).get() == null && mutating().withName(name).get() == null) {
                    missing.add(name);
                }
            } catch (KubernetesClientException e) {
                throw ApiErrors.failure("read the webhook configuration " + name, e);
            }
        }
        if (!missing.isEmpty()) {
            throw new CommandFailedException("no ValidatingWebhookConfiguration or MutatingWebhookConfiguration named "
                    + String.join(", ", missing.stream().map(n -> "\"" + n + "\"").toList())
                    + " exists; install the manifests first (kubectl apply -k manifests/overlays/self-signed) or pass"
                    + " the right --webhook-configuration; nothing was changed");
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (String name : names) {
            Outcome v = update("ValidatingWebhookConfiguration", name, validating(), c -> {
                List<WebhookClientConfig> configs = new ArrayList<>();
                for (ValidatingWebhook w : nullSafe(c.getWebhooks())) {
                    configs.add(w.getClientConfig());
                }
                return configs;
            }, caBundleBase64);
            Outcome m = update("MutatingWebhookConfiguration", name, mutating(), c -> {
                List<WebhookClientConfig> configs = new ArrayList<>();
                for (MutatingWebhook w : nullSafe(c.getWebhooks())) {
                    configs.add(w.getClientConfig());
                }
                return configs;
            }, caBundleBase64);
            if (v != null) {
                outcomes.add(v);
            }
            if (m != null) {
                outcomes.add(m);
            }
        }
        return outcomes;
    }

    private <T extends HasMetadata> Outcome update(String kind, String name,
                                                   NonNamespaceOperation<T, ?, Resource<T>> op,
                                                   Function<T, List<WebhookClientConfig>> clientConfigs,
                                                   String bundle) throws CommandFailedException {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                T current = op.withName(name).get();
                if (current == null) {
                    return null;
                }
                List<WebhookClientConfig> configs = clientConfigs.apply(current);
                boolean changed = false;
                for (WebhookClientConfig cc : configs) {
                    if (cc != null && !Objects.equals(cc.getCaBundle(), bundle)) {
                        cc.setCaBundle(bundle);
                        changed = true;
                    }
                }
                if (changed) {
                    op.resource(current).update();
                }
                return new Outcome(kind, name, configs.size(), changed);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409 && attempt < ATTEMPTS) {
                    continue;
                }
                throw ApiErrors.failure("update " + kind + " " + name, e);
            }
        }
        throw new CommandFailedException("cannot update " + kind + " " + name + ": it kept changing under us (409 Conflict)");
    }

    private NonNamespaceOperation<ValidatingWebhookConfiguration, ?, Resource<ValidatingWebhookConfiguration>> validating() {
        return client.admissionRegistration().v1().validatingWebhookConfigurations();
    }

    private NonNamespaceOperation<MutatingWebhookConfiguration, ?, Resource<MutatingWebhookConfiguration>> mutating() {
        return client.admissionRegistration().v1().mutatingWebhookConfigurations();
    }

    private static <W> List<W> nullSafe(List<W> list) {
        return list == null ? List.of() : list;
    }
}
