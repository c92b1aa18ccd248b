package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pod Juneau runs meets the restricted Pod Security Standard and has requests and limits (docs/install.md). */
class PodSecurityTest {
    record Pod(String install, String owner, JsonNode spec) {
        @Override
        public String toString() {
            return owner + " in " + install;
        }
    }

    static final String AGENT = "DaemonSet/juneau-agent";

    /**
     * The pod templates of every Deployment, Job, CronJob and DaemonSet of both installs but the node agent's, whose
     * posture differs by design (host network, NET_RAW, uid 0) and is pinned exactly by
     * {@link #theAgentRunsOnEveryNodeOnTheHostNetworkWithNetRawAndNothingElse()}.
     */
    static Stream<Pod> pods() {
        return allPods().filter(p -> !p.owner().equals(AGENT));
    }

    static Stream<Pod> allPods() {
        List<Pod> out = new ArrayList<>();
        for (Install i : Install.both()) {
            for (JsonNode o : i.objects()) {
                String kind = o.path("kind").asText();
                JsonNode template = switch (kind) {
                    case "Deployment", "Job", "DaemonSet" -> o.path("spec").path("template");
                    case "CronJob" -> o.path("spec").path("jobTemplate").path("spec").path("template");
                    default -> null;
                };
                if (template != null) {
                    out.add(new Pod(i.name(), kind + "/" + o.path("metadata").path("name").asText(), template.path("spec")));
                }
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(8);
        return out.stream();
    }

    static List<JsonNode> containers(JsonNode pod) {
        List<JsonNode> out = new ArrayList<>();
        pod.path("initContainers").forEach(out::add);
        pod.path("containers").forEach(out::add);
        return out;
    }

    @ParameterizedTest
    @MethodSource("pods")
    void podRunsAsNonRootWithRuntimeDefaultSeccompAndNoHostAccess(Pod pod) {
        JsonNode spec = pod.spec();
        assertThat(spec.path("securityContext").path("runAsNonRoot").asBoolean()).as("%s runAsNonRoot", pod).isTrue();
        assertThat(spec.path("securityContext").path("runAsUser").asInt()).as("%s runAsUser", pod).isPositive();
        assertThat(spec.path("securityContext").path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertThat(spec.path(host).asBoolean(false)).as("%s %s", pod, host).isFalse();
        }
        for (JsonNode v : spec.path("volumes")) {
            assertThat(v.has("hostPath")).as("%s volume %s", pod, v.path("name").asText()).isFalse();
        }
        // the token is mounted because each of these pods calls the API, and only there (ServiceAccounts default to false)
        assertThat(spec.path("automountServiceAccountToken").asBoolean(false)).isTrue();
        assertThat(spec.path("serviceAccountName").asText()).startsWith("juneau-");
    }

    @ParameterizedTest
    @MethodSource("pods")
    void everyContainerIsLockedDownAndSized(Pod pod) {
        for (JsonNode c : containers(pod.spec())) {
            String name = pod + " container " + c.path("name").asText();
            JsonNode sc = c.path("securityContext");
            assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).as("%s allowPrivilegeEscalation", name).isFalse();
            assertThat(sc.path("readOnlyRootFilesystem").asBoolean(false)).as("%s readOnlyRootFilesystem", name).isTrue();
            assertThat(sc.path("runAsNonRoot").asBoolean(false)).as("%s runAsNonRoot", name).isTrue();
            assertThat(sc.path("privileged").asBoolean(false)).as("%s privileged", name).isFalse();
            assertThat(KustomizeRenderTest.texts(sc.path("capabilities").path("drop"))).as("%s drops", name).containsExactly("ALL");
            assertThat(sc.path("capabilities").has("add")).as("%s adds capabilities", name).isFalse();
            assertThat(sc.path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
            for (String kind : List.of("requests", "limits")) {
                for (String r : List.of("cpu", "memory")) {
                    assertThat(c.path("resources").path(kind).path(r).asText()).as("%s resources.%s.%s", name, kind, r).isNotEmpty();
                }
            }
            String image = c.path("image").asText();
            assertThat(image).as("%s image", name).contains(":").doesNotEndWith(":latest");
            // a read-only root filesystem needs a writable /tmp for the JVM
            boolean tmp = false;
            for (JsonNode m : c.path("volumeMounts")) {
                tmp |= "/tmp".equals(m.path("mountPath").asText());
            }
            assertThat(tmp).as("%s mounts an emptyDir at /tmp", name).isTrue();
        }
    }

    @Test
    void theAgentRunsOnEveryNodeOnTheHostNetworkWithNetRawAndNothingElse() {
        List<Pod> agents = allPods().filter(p -> p.owner().equals(AGENT)).toList();
        assertThat(agents).as("the agent DaemonSet in both installs").hasSize(2);
        for (Pod pod : agents) {
            JsonNode spec = pod.spec();
            assertThat(spec.path("hostNetwork").asBoolean()).as("%s hostNetwork (ARP on the node's links)", pod).isTrue();
            assertThat(spec.path("hostPID").asBoolean(false)).isFalse();
            assertThat(spec.path("hostIPC").asBoolean(false)).isFalse();
            assertThat(spec.path("dnsPolicy").asText()).isEqualTo("ClusterFirstWithHostNet");
            for (JsonNode v : spec.path("volumes")) {
                assertThat(v.has("hostPath")).as("%s volume %s", pod, v.path("name").asText()).isFalse();
            }
            assertThat(spec.path("serviceAccountName").asText()).isEqualTo("juneau-agent");
            assertThat(spec.path("automountServiceAccountToken").asBoolean(false)).isTrue();
            assertThat(spec.path("securityContext").path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
            // uid 0 because Kubernetes gives a non-root process no way to use NET_RAW with no_new_privs (see the manifest)
            assertThat(spec.path("securityContext").path("runAsUser").asInt(-1)).isZero();
            assertThat(spec.path("tolerations").size()).isEqualTo(1);
            assertThat(spec.path("tolerations").get(0).path("operator").asText()).as("tolerates every taint").isEqualTo("Exists");
            assertThat(spec.path("tolerations").get(0).has("key")).isFalse();
            List<JsonNode> containers = containers(spec);
            assertThat(containers).hasSize(1);
            JsonNode c = containers.get(0);
            JsonNode sc = c.path("securityContext");
            assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
            assertThat(sc.path("readOnlyRootFilesystem").asBoolean(false)).isTrue();
            assertThat(sc.path("privileged").asBoolean(false)).isFalse();
            assertThat(KustomizeRenderTest.texts(sc.path("capabilities").path("drop"))).containsExactly("ALL");
            // NET_BIND_SERVICE: BIRD's BGP port 179 (docs/bgp.md); never NET_ADMIN, the node programs no route
            assertThat(KustomizeRenderTest.texts(sc.path("capabilities").path("add")))
                    .containsExactly("NET_RAW", "NET_BIND_SERVICE");
            assertThat(sc.path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
            for (String kind : List.of("requests", "limits")) {
                for (String r : List.of("cpu", "memory")) {
                    assertThat(c.path("resources").path(kind).path(r).asText()).isNotEmpty();
                }
            }
            assertThat(c.path("volumeMounts").findValuesAsText("mountPath")).contains("/tmp", "/run/juneau/bird");
            JsonNode birdVolume = null;
            for (JsonNode v : spec.path("volumes")) {
                if ("bird".equals(v.path("name").asText())) {
                    birdVolume = v;
                }
            }
            assertThat(birdVolume).as("%s: BIRD's files (MD5 passwords) on an emptyDir", pod).isNotNull();
            assertThat(birdVolume.path("emptyDir").path("medium").asText()).as("in memory, never on disk")
                    .isEqualTo("Memory");
            List<String> ports = new java.util.ArrayList<>();
            c.path("ports").forEach(p -> ports.add(p.path("containerPort").asInt() + "/" + p.path("protocol").asText()));
            assertThat(ports).contains("179/TCP", "3784/UDP");
            JsonNode nodeName = null;
            for (JsonNode e : c.path("env")) {
                if ("NODE_NAME".equals(e.path("name").asText())) {
                    nodeName = e;
                }
            }
            assertThat(nodeName).as("NODE_NAME from the Downward API").isNotNull();
            assertThat(nodeName.path("valueFrom").path("fieldRef").path("fieldPath").asText()).isEqualTo("spec.nodeName");
            assertThat(KustomizeRenderTest.texts(c.path("args"))).contains("--node=$(NODE_NAME)");
            assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/readyz");
            assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/healthz");
        }
    }

    @Test
    void serviceAccountsDoNotMountTokensByDefault() {
        for (Install i : Install.both()) {
            for (JsonNode sa : i.ofKind("ServiceAccount")) {
                assertThat(sa.path("automountServiceAccountToken").asBoolean(true))
                        .as("%s ServiceAccount %s", i, sa.path("metadata").path("name").asText()).isFalse();
            }
        }
    }

    @Test
    void controllerRunsTwoReplicasWithLeaderElection() {
        for (Install i : Install.both()) {
            JsonNode d = i.get("Deployment", "juneau-controller");
            assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(2);
            JsonNode pod = d.path("spec").path("template").path("spec");
            assertThat(pod.path("serviceAccountName").asText()).isEqualTo("juneau-controller");
            assertThat(JuneauConstants.DEFAULT_CONTROLLER_USERNAME)
                    .isEqualTo("system:serviceaccount:" + d.path("metadata").path("namespace").asText() + ":"
                            + pod.path("serviceAccountName").asText());
            JsonNode c = pod.path("containers").get(0);
            // the Lease lives where the Role for leases is granted, and each replica has its own identity
            String ns = i.get("Role", "juneau-controller-leader-election").path("metadata").path("namespace").asText();
            assertThat(ns).isEqualTo(JuneauConstants.SYSTEM_NAMESPACE);
            assertThat(KustomizeRenderTest.texts(c.path("args"))).contains("--namespace=$(POD_NAMESPACE)",
                    "--lease-name=juneau-controller", "--identity=$(POD_NAME)");
            assertThat(c.path("env").findValuesAsText("fieldPath")).contains("metadata.name", "metadata.namespace");
            assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/readyz");
            assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/healthz");
            assertAntiAffinity(pod, "controller");
        }
    }

    @Test
    void webhookRunsTwoReplicasBehindADisruptionBudgetAndIsReadyOnlyWhenServing() {
        for (Install i : Install.both()) {
            JsonNode d = i.get("Deployment", "juneau-webhook");
            assertThat(d.path("spec").path("replicas").asInt()).isEqualTo(2);
            JsonNode labels = d.path("spec").path("template").path("metadata").path("labels");
            JsonNode pod = d.path("spec").path("template").path("spec");
            JsonNode c = pod.path("containers").get(0);
            JsonNode readiness = c.path("readinessProbe").path("httpGet");
            assertThat(readiness.path("path").asText()).isEqualTo("/readyz");
            assertThat(readiness.path("scheme").asText()).isEqualTo("HTTPS");
            assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/healthz");
            assertThat(c.path("livenessProbe").path("httpGet").path("scheme").asText()).isEqualTo("HTTPS");
            assertAntiAffinity(pod, "webhook");

            JsonNode pdb = i.get("PodDisruptionBudget", "juneau-webhook");
            assertThat(pdb.path("spec").path("minAvailable").asInt()).isEqualTo(1);
            assertThat(selects(pdb.path("spec").path("selector").path("matchLabels"), labels)).isTrue();

            JsonNode svc = i.get("Service", JuneauConstants.WEBHOOK_SERVICE_NAME);
            assertThat(selects(svc.path("spec").path("selector"), labels)).isTrue();
            JsonNode port = svc.path("spec").path("ports").get(0);
            assertThat(port.path("port").asInt()).isEqualTo(443);
            String target = port.path("targetPort").asText();
            boolean found = false;
            for (JsonNode p : c.path("ports")) {
                found |= target.equals(p.path("name").asText());
            }
            assertThat(found).as("Service targetPort %s names a container port", target).isTrue();
            assertThat(readiness.path("port").asText()).isEqualTo(target);
        }
    }

    private static void assertAntiAffinity(JsonNode pod, String component) {
        JsonNode terms = pod.path("affinity").path("podAntiAffinity").path("preferredDuringSchedulingIgnoredDuringExecution");
        assertThat(terms.size()).as("%s anti-affinity", component).isPositive();
        JsonNode term = terms.get(0).path("podAffinityTerm");
        assertThat(term.path("topologyKey").asText()).isEqualTo("kubernetes.io/hostname");
        assertThat(term.path("labelSelector").path("matchLabels").path("app.kubernetes.io/component").asText()).isEqualTo(component);
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        if (selector.isEmpty()) {
            return false;
        }
        var it = selector.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }
}
