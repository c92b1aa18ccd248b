package me.loutres.juneau.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes TLS material in a Secret of type kubernetes.io/tls. Writes are create-or-update with the read
 * resourceVersion (a concurrent writer makes us re-read, never overwrite blindly); unchanged data is not written.
 */
final class SecretMaterial {
    static final String TLS_TYPE = "kubernetes.io/tls";
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    SecretMaterial(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    String describe() {
        return "Secret " + namespace + "/" + name;
    }

    /** The decoded entries, or empty when the Secret does not exist. */
    Optional<Map<String, String>> read() throws CommandFailedException {
        Secret s = get();
        if (s == null) {
            return Optional.empty();
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (s.getData() != null) {
            s.getData().forEach((k, v) -> out.put(k, v == null ? "" : new String(Base64.getDecoder().decode(v), StandardCharsets.US_ASCII)));
        }
        return Optional.of(out);
    }

    /** Sets the entries (others are kept). @return true when the Secret was created or changed */
    boolean write(Map<String, String> entries, Map<String, String> labels) throws CommandFailedException {
        Map<String, String> encoded = new LinkedHashMap<>();
        entries.forEach((k, v) -> encoded.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.US_ASCII))));
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Secret current = get();
            try {
                if (current == null) {
                    Secret fresh = new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                            .withLabels(labels).endMetadata().withType(TLS_TYPE).withData(encoded).build();
                    client.secrets().inNamespace(namespace).resource(fresh).create();
                    return true;
                }
                Map<String, String> data = new LinkedHashMap<>(current.getData() == null ? Map.of() : current.getData());
                if (data.entrySet().containsAll(encoded.entrySet())) {
                    return false;
                }
                data.putAll(encoded);
                current.setData(data);
                // update() sends the resourceVersion we read: a concurrent change answers 409 and we retry
                client.secrets().inNamespace(namespace).resource(current).update();
                return true;
            } catch (KubernetesClientException e) {
                if ((e.getCode() == 409) && attempt < ATTEMPTS) {
                    continue;
                }
                throw ApiErrors.failure("write " + describe(), e);
            }
        }
        throw new CommandFailedException("cannot write " + describe() + ": it kept changing under us (409 Conflict)");
    }

    private Secret get() throws CommandFailedException {
        try {
            return client.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw ApiErrors.failure("read " + describe(), e);
        }
    }
}
