package me.loutres.juneau.webhook.view;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * How the informer view reads a named, cluster-scoped object its cache does not hold (yet): a GET to the API
 * server in a cluster. An embedding that serves the API itself may answer in-process instead.
 */
@FunctionalInterface
public interface MissLookup {
    /** The object, or null when the API server has none by that name. */
    HasMetadata get(Class<? extends HasMetadata> type, String name);

    /**
     * The Secret {@code name} of {@code namespace}, or null. The caller keeps only its keys. By default a lookup that
     * cannot read Secrets finds none.
     */
    default io.fabric8.kubernetes.api.model.Secret secret(String namespace, String name) {
        return null;
    }

    /** A GET through the client, as in a cluster. */
    static MissLookup api(KubernetesClient client) {
        return new MissLookup() {
            @Override
            public HasMetadata get(Class<? extends HasMetadata> type, String name) {
                return client.resources(type).withName(name).get();
            }

            @Override
            public io.fabric8.kubernetes.api.model.Secret secret(String namespace, String name) {
                return client.secrets().inNamespace(namespace).withName(name).get();
            }
        };
    }
}
