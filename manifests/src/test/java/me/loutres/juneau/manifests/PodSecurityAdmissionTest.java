package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Pod Security admission level a namespace enforces must admit every pod the install runs there: a label that
 * is stricter than a DaemonSet's posture makes the API server refuse its pods, and the VIPs never answer. Levels
 * follow the Pod Security Standards page of the Kubernetes documentation (the checks Juneau's pods can trip).
 */
class PodSecurityAdmissionTest {
    enum Level { RESTRICTED, BASELINE, PRIVILEGED }

    /** Capabilities the baseline level allows a container to add ("Capabilities" row of the baseline policy). */
    static final Set<String> BASELINE_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");

    /** The least permissive level that admits the pod spec. */
    static Level levelOf(JsonNode pod) {
        boolean baseline = true;
        boolean restricted = true;
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            baseline &= !pod.path(host).asBoolean(false);
        }
        for (JsonNode v : pod.path("volumes")) {
            baseline &= !v.has("hostPath");
        }
        String podSeccomp = pod.path("securityContext").path("seccompProfile").path("type").asText("");
        boolean podNonRoot = pod.path("securityContext").path("runAsNonRoot").asBoolean(false);
        for (JsonNode c : PodSecurityTest.containers(pod)) {
            JsonNode sc = c.path("securityContext");
            baseline &= !sc.path("privileged").asBoolean(false);
            for (JsonNode port : c.path("ports")) {
                baseline &= port.path("hostPort").asInt(0) == 0;
            }
            List<String> added = KustomizeRenderTest.texts(sc.path("capabilities").path("add"));
            baseline &= BASELINE_CAPABILITIES.containsAll(added);
            restricted &= added.stream().allMatch("NET_BIND_SERVICE"::equals);
            restricted &= KustomizeRenderTest.texts(sc.path("capabilities").path("drop")).contains("ALL");
            restricted &= !sc.path("allowPrivilegeEscalation").asBoolean(true);
            restricted &= sc.path("runAsNonRoot").asBoolean(podNonRoot);
            restricted &= sc.path("runAsUser").asInt(pod.path("securityContext").path("runAsUser").asInt(1)) != 0;
            String seccomp = sc.path("seccompProfile").path("type").asText(podSeccomp);
            restricted &= seccomp.equals("RuntimeDefault") || seccomp.equals("Localhost");
        }
        return !baseline ? Level.PRIVILEGED : restricted ? Level.RESTRICTED : Level.BASELINE;
    }

    static Level enforced(JsonNode namespace) {
        String label = namespace.path("metadata").path("labels").path("pod-security.kubernetes.io/enforce").asText("");
        // no label: the cluster's default, which is privileged unless the admission configuration says otherwise
        return label.isEmpty() ? Level.PRIVILEGED : Level.valueOf(label.toUpperCase(java.util.Locale.ROOT));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            restricted pod                | {"securityContext":{"runAsNonRoot":true,"runAsUser":1000,"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}                             | RESTRICTED
            runs as root                  | {"securityContext":{"runAsUser":0,"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}                                              | BASELINE
            host network                  | {"hostNetwork":true,"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}                  | PRIVILEGED
            adds NET_RAW                  | {"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"],"add":["NET_RAW"]}}}]}                    | PRIVILEGED
            adds NET_BIND_SERVICE         | {"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"],"add":["NET_BIND_SERVICE"]}}}]}           | RESTRICTED
            no seccomp profile            | {"securityContext":{"runAsNonRoot":true},"containers":[{"securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}]}                                                                                  | BASELINE
            """)
    void classifiesPodsAsThePodSecurityStandardsDo(String name, String pod, Level level) throws Exception {
        assertThat(levelOf(Install.YAML.readTree(pod))).isEqualTo(level);
    }

    @Test
    void everyNamespaceAdmitsThePodsTheInstallRunsInIt() {
        for (Install i : List.of(Install.certManager(), Install.selfSigned(), Install.example())) {
            List<JsonNode> namespaces = i.objects().stream().filter(o -> "Namespace".equals(o.path("kind").asText())).toList();
            assertThat(namespaces).as("%s creates its namespace", i.name()).isNotEmpty();
            for (JsonNode ns : namespaces) {
                String name = ns.path("metadata").path("name").asText();
                Level allowed = enforced(ns);
                for (JsonNode o : i.objects()) {
                    JsonNode template = switch (o.path("kind").asText()) {
                        case "Deployment", "Job", "DaemonSet" -> o.path("spec").path("template");
                        case "CronJob" -> o.path("spec").path("jobTemplate").path("spec").path("template");
                        default -> null;
                    };
                    if (template == null || !name.equals(o.path("metadata").path("namespace").asText())) {
                        continue;
                    }
                    Level needed = levelOf(template.path("spec"));
                    assertThat(needed.compareTo(allowed))
                            .as("%s: %s/%s needs Pod Security level %s but namespace %s enforces %s", i.name(),
                                    o.path("kind").asText(), o.path("metadata").path("name").asText(), needed, name, allowed)
                            .isLessThanOrEqualTo(0);
                }
                // the pods that can meet restricted are still held to it: warnings and audit stay at restricted
                assertThat(ns.path("metadata").path("labels").path("pod-security.kubernetes.io/warn").asText())
                        .as("%s namespace %s warns at restricted", i.name(), name).isEqualTo("restricted");
            }
        }
    }
}
