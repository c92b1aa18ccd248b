package me.loutres.juneau.view;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import me.loutres.juneau.bgp.Md5PasswordRule;

/**
 * What a cluster view may know of a Secret: its name, namespace, data keys and, per key, whether its value could be
 * a BGPPeer's password ({@link Md5PasswordRule}). A password is never kept: the views replace every value, as the
 * Secret arrives, by what the rule says of it (docs/admission.md, BGPPeer).
 */
public final class Secrets {
    /** Marks a copy made by {@link #keysOnly}, whose values are the rule's verdicts, not the Secret's data. */
    static final String KEYS_ONLY = "juneau.loutres.me/keys-only";

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

    /**
     * A copy with the same name, namespace, resourceVersion and keys, each value replaced by the reason it cannot be
     * a BGP password (base64 of the text, as {@code data} holds it), or empty when it can. A copy is returned as is.
     */
    public static Secret keysOnly(Secret secret) {
        if (isKeysOnly(secret)) {
            return secret;
        }
        Map<String, String> data = new LinkedHashMap<>();
        Map<String, byte[]> values = values(secret);
        keys(secret).forEach(k -> data.put(k, Md5PasswordRule.problem(values.get(k))
                .map(p -> Base64.getEncoder().encodeToString(p.getBytes(StandardCharsets.UTF_8))).orElse("")));
        var meta = secret.getMetadata();
        return new SecretBuilder().withApiVersion(secret.getApiVersion()).withKind(secret.getKind())
                .withMetadata(meta == null ? null : new ObjectMetaBuilder().withName(meta.getName())
                        .withNamespace(meta.getNamespace()).withResourceVersion(meta.getResourceVersion())
                        .withUid(meta.getUid()).withAnnotations(Map.of(KEYS_ONLY, "true")).build())
                .withData(data).build();
    }

    /**
     * Why the value under {@code key} cannot be a BGP password (e.g. {@code is 96 bytes long}); empty when it can or
     * when there is no such key. Reads a Secret as it arrived or a {@link #keysOnly} copy alike.
     */
    public static Optional<String> passwordProblem(Secret secret, String key) {
        Secret copy = keysOnly(secret);
        String verdict = copy.getData() == null ? null : copy.getData().get(key);
        return verdict == null || verdict.isEmpty() ? Optional.empty()
                : Optional.of(new String(Base64.getDecoder().decode(verdict), StandardCharsets.UTF_8));
    }

    /**
     * The values as bytes: {@code data} decoded from base64, {@code stringData} (which the API server merges over
     * {@code data}) as UTF-8. A value that is not base64 is an empty array, which no rule accepts.
     */
    public static Map<String, byte[]> values(Secret secret) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((k, v) -> {
                try {
                    out.put(k, v == null ? new byte[0] : Base64.getDecoder().decode(v));
                } catch (IllegalArgumentException e) {
                    out.put(k, new byte[0]);
                }
            });
        }
        if (secret.getStringData() != null) {
            secret.getStringData().forEach((k, v) -> out.put(k, v == null ? new byte[0]
                    : v.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static boolean isKeysOnly(Secret secret) {
        return secret.getMetadata() != null && secret.getMetadata().getAnnotations() != null
                && "true".equals(secret.getMetadata().getAnnotations().get(KEYS_ONLY));
    }
}
