package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a cluster view may know of a Secret: its name, namespace and data keys. A BGPPeer's password is checked to
 * exist, never read, so the views drop every value as the Secret arrives (docs/admission.md, BGPPeer).
 */
public final class Secrets {
    private Secrets() {
    }

    /** The Secret's keys, of {@code data} and of a manifest's {@code stringData}. */
    public static Set<String> keys(Secret secret) {
        Set<String> out = new LinkedHashSet<>();
        if (secret.getData() != null) {
            out.addAll(secret.getData().keySet());
        }
        if (secret.getStringData() != null) {
            out.addAll(secret.getStringData().keySet());
        }
        return out;
    }

    /** A copy with the same name, namespace, resourceVersion and keys, and every value empty. */
    public static Secret keysOnly(Secret secret) {
        Map<String, String> data = new LinkedHashMap<>();
        keys(secret).forEach(k -> data.put(k, ""));
        var meta = secret.getMetadata();
        return new SecretBuilder().withApiVersion(secret.getApiVersion()).withKind(secret.getKind())
                .withMetadata(meta == null ? null : new ObjectMetaBuilder().withName(meta.getName())
                        .withNamespace(meta.getNamespace()).withResourceVersion(meta.getResourceVersion())
                        .withUid(meta.getUid()).build())
                .withData(data).build();
    }
}
