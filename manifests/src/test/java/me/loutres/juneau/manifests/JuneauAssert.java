package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import me.loutres.juneau.api.JuneauConstants;

/** Checks shared by the manifests tests. */
final class JuneauAssert {
    private JuneauAssert() {
    }

    /** The four names of docs/install.md for the webhook Service. */
    static List<String> serviceDnsNames() {
        String s = JuneauConstants.WEBHOOK_SERVICE_NAME;
        String ns = JuneauConstants.SYSTEM_NAMESPACE;
        return List.of(s, s + "." + ns, s + "." + ns + ".svc", s + "." + ns + ".svc.cluster.local");
    }

    static void noneOfKind(Install install, String... kinds) {
        for (String k : kinds) {
            assertThat(install.ofKind(k)).as("%s renders a %s", install, k).isEmpty();
        }
    }

    /** The webhook mounts the whole Secret as a directory (no subPath) and reads its files from there. */
    static void webhookMountsSecret(Install install, String secretName) {
        JsonNode pod = install.get("Deployment", "juneau-webhook").path("spec").path("template").path("spec");
        JsonNode volume = null;
        for (JsonNode v : pod.path("volumes")) {
            if (secretName.equals(v.path("secret").path("secretName").asText())) {
                volume = v;
            }
        }
        assertThat(volume).as("a volume of Secret %s in the webhook pod", secretName).isNotNull();
        String volumeName = volume.path("name").asText();
        JsonNode container = pod.path("containers").get(0);
        JsonNode mount = null;
        for (JsonNode m : container.path("volumeMounts")) {
            if (volumeName.equals(m.path("name").asText())) {
                mount = m;
            }
        }
        assertThat(mount).as("the webhook container mounts volume %s", volumeName).isNotNull();
        assertThat(mount.has("subPath")).as("a subPath mount is never updated when the Secret is renewed").isFalse();
        assertThat(mount.path("readOnly").asBoolean()).isTrue();
        String dir = mount.path("mountPath").asText();
        assertThat(KustomizeRenderTest.texts(container.path("args")))
                .contains("--tls-cert-file=" + dir + "/tls.crt", "--tls-key-file=" + dir + "/tls.key");
    }
}
