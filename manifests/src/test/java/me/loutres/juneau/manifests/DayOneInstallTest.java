package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a real cluster needs on day one, asserted on the rendered installs: images under one registry prefix that the
 * build script tags the same way, scheduling priority, disruption budgets, metrics Services, NetworkPolicies, and the
 * example overlay that sets the registry, the reserved CIDRs, the API server's addresses and a ServiceMonitor.
 */
class DayOneInstallTest {
    static final Path IMAGES = Path.of("images", "kustomization.yaml");
    static final String DEFAULT_PREFIX = "localhost/juneau/";
    static final String TAG = ":0.1.0";

    static List<Install> installs() {
        return List.of(Install.certManager(), Install.selfSigned(), Install.example());
    }

    /** logical image name (juneau-controller) -> newName, from the one component that names the registry. */
    static Map<String, String> imageComponent() {
        Map<String, String> out = new HashMap<>();
        JsonNode component = Install.documents(IMAGES).get(0);
        assertThat(component.path("kind").asText()).isEqualTo("Component");
        for (JsonNode i : component.path("images")) {
            assertThat(i.path("newTag").asText()).isEqualTo(TAG.substring(1));
            out.put(i.path("name").asText(), i.path("newName").asText());
        }
        return out;
    }

    static List<String> partsWithADockerfile() throws IOException {
        try (Stream<Path> dirs = Files.list(DockerfilesTest.ROOT)) {
            return dirs.filter(d -> Files.exists(d.resolve("Dockerfile"))).map(d -> d.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void everyImageOfTheDefaultInstallsIsUnderTheOnePrefixAndFromAPartsDockerfile() throws IOException {
        Map<String, String> component = imageComponent();
        for (String part : partsWithADockerfile()) {
            if (part.equals("validate")) {
                continue; // the image of `juneau validate` is for CI jobs (docs/ci.md), not part of the install
            }
            assertThat(component).as("manifests/images names the image of %s/Dockerfile", part)
                    .containsEntry("juneau-" + part, DEFAULT_PREFIX + part);
        }
        assertThat(component.values()).allSatisfy(n -> assertThat(n).startsWith(DEFAULT_PREFIX));
        for (Install install : List.of(Install.certManager(), Install.selfSigned())) {
            assertThat(install.containers()).isNotEmpty().allSatisfy(c -> assertThat(c.path("image").asText())
                    .as("image of container %s in %s", c.path("name").asText(), install)
                    .startsWith(DEFAULT_PREFIX).endsWith(TAG)
                    .isIn(component.values().stream().map(n -> n + TAG).toList()));
        }
    }

    @Test
    void theManifestSourcesNameImagesOnlyByTheirLogicalNames() throws IOException {
        Set<String> logical = imageComponent().keySet();
        try (Stream<Path> files = Files.walk(Path.of("."))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.startsWith("./src") && !p.startsWith("./target")
                    && !p.startsWith("./examples")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    String t = line.strip();
                    if (t.startsWith("image:") || t.startsWith("- image:")) {
                        // a registry in a source file would bypass the one place that names it
                        assertThat(t.substring(t.indexOf("image:") + 6).strip()).as("%s: %s", f, t).isIn(logical);
                    }
                }
            }
        }
    }

    @Test
    void theBuildScriptTagsExactlyTheImagesTheInstallRuns() throws Exception {
        Set<String> rendered = new TreeSet<>();
        for (Install install : List.of(Install.certManager(), Install.selfSigned())) {
            install.containers().forEach(c -> rendered.add(c.path("image").asText()));
        }
        Set<String> built = new TreeSet<>(tags(script("--dry-run")));
        assertThat(built).hasSize(partsWithADockerfile().size()).containsAll(rendered);

        List<String> custom = script("--dry-run", "--builder", "docker", "--registry", "registry.example.com/team/juneau/",
                "--tag", "1.2.3", "--push");
        assertThat(tags(custom)).allSatisfy(t -> assertThat(t).startsWith("registry.example.com/team/juneau/").endsWith(":1.2.3"));
        assertThat(custom).anySatisfy(l -> assertThat(l).startsWith("+ docker push registry.example.com/team/juneau/controller:1.2.3")
                .satisfies(x -> assertThat(x).doesNotContain("//")));
        // the next step needs nothing but kubectl: the images: entries of an overlay (kubectl apply -k reads them)
        String next = String.join("\n", custom);
        assertThat(next).doesNotContain("kustomize edit").contains("\nimages:\n").contains("\n  - name: localhost/juneau/webhook\n"
                + "    newName: registry.example.com/team/juneau/webhook\n    newTag: 1.2.3").doesNotContain("name: localhost/juneau/validate");
        // the base is the Dockerfiles' own by default, and a parameter
        assertThat(tagged(custom)).allSatisfy(l -> assertThat(l).contains("--build-arg BASE=eclipse-temurin:17-jre"));
        assertThat(tagged(script("--dry-run", "--builder", "docker", "--base", "registry.example.com/mirror/temurin:17")))
                .hasSize(partsWithADockerfile().size())
                .allSatisfy(l -> assertThat(l).contains("--build-arg BASE=registry.example.com/mirror/temurin:17"));
    }

    @Test
    void theDebianBaseIsMadeFromDebianPackagesAndTheBuildsThenNeedNoNetwork() throws Exception {
        Path cache = Files.createTempDirectory("images-cache");
        try {
            List<String> lines = script("--dry-run", "--builder", "podman", "--base", "debian", "--base-cache", cache.toString(),
                    "--oci-dir", cache.resolve("oci").toString());
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("+ mmdebstrap ")
                    .contains("--include=openjdk-17-jre-headless,ca-certificates,bird2", " bookworm ", cache.toString()));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("+ podman import ").endsWith(" localhost/juneau/base-debian:bookworm"));
            assertThat(tagged(lines)).hasSize(partsWithADockerfile().size()).allSatisfy(l -> assertThat(l)
                    .contains("--network=none", "--build-arg BASE=localhost/juneau/base-debian:bookworm"));
            assertThat(lines).anySatisfy(l -> assertThat(l).isEqualTo("+ podman save --format oci-archive -o "
                    + cache.resolve("oci/agent.oci.tar") + " localhost/juneau/agent:0.1.0"));
        } finally {
            try (Stream<Path> files = Files.walk(cache)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A clean clone has no base tar: the Debian base the builder imported from the same package list less than a
     * week ago is reused (no mmdebstrap, no import), so `mvn verify` on a fresh checkout does not make it again.
     * One older, one of another package list, or --refresh-base makes it again. The builder and mmdebstrap are
     * stand-ins on PATH that log their calls; the stand-in builder answers the base's labels.
     */
    @Test
    void aCleanCloneReusesAYoungDebianBaseOfTheSamePackagesAndMakesAnOtherOneAgain() throws Exception {
        Path dir = Files.createTempDirectory("images-reuse");
        try {
            Path bin = Files.createDirectories(dir.resolve("bin"));
            Path log = dir.resolve("calls.log");
            Files.writeString(bin.resolve("podman"), """
                    #!/bin/sh
                    echo "podman $*" >> "$FAKE_LOG"
                    if [ "$1 $2" = "image inspect" ]; then echo "$FAKE_LABELS"; fi
                    exit 0
                    """);
            Files.writeString(bin.resolve("mmdebstrap"), """
                    #!/bin/sh
                    echo "mmdebstrap" >> "$FAKE_LOG"
                    for a; do last="$a"; done
                    echo tar > "$last"
                    """);
            bin.resolve("podman").toFile().setExecutable(true);
            bin.resolve("mmdebstrap").toFile().setExecutable(true);
            // the key names the suite and the package list, as the tar's name does
            String tarLine = script("--dry-run", "--builder", "podman", "--base", "debian", "--base-cache",
                    dir.resolve("dry").toString()).stream().filter(l -> l.startsWith("+ mmdebstrap ")).findFirst()
                    .orElseThrow();
            String key = tarLine.replaceAll(".*base-debian-([^ ]+)\\.tar\\.partial.*", "$1");
            assertThat(key).matches("bookworm-[0-9]+");
            long now = System.currentTimeMillis() / 1000;

            record Run(ProcessResult result, List<String> calls) {
            }
            java.util.function.BiFunction<String, List<String>, Run> build = (labels, extra) -> {
                try {
                    Files.deleteIfExists(log);
                    List<String> args = new ArrayList<>(List.of("--builder", "podman", "--base", "debian",
                            "--no-package", "--base-cache", dir.resolve("cache-" + System.nanoTime()).toString()));
                    args.addAll(extra);
                    ProcessResult r = run(args, Map.of("PATH", bin + ":" + System.getenv("PATH"),
                            "FAKE_LOG", log.toString(), "FAKE_LABELS", labels));
                    assertThat(r.exit()).as(r.err()).isZero();
                    return new Run(r, Files.exists(log) ? Files.readAllLines(log) : List.of());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };

            Run young = build.apply(key + " " + (now - 3 * 3600), List.of());
            assertThat(young.result().err()).contains("reusing localhost/juneau/base-debian:bookworm");
            assertThat(young.calls()).noneMatch(c -> c.startsWith("mmdebstrap") || c.startsWith("podman import"));
            assertThat(young.calls().stream().filter(c -> c.startsWith("podman build"))).hasSize(
                    partsWithADockerfile().size()).allSatisfy(c -> assertThat(c)
                    .contains("--network=none", "--build-arg BASE=localhost/juneau/base-debian:bookworm"));

            for (Map.Entry<String, List<String>> remade : Map.of(
                    key + " " + (now - 8 * 24 * 3600), List.<String>of(),       // older than a week
                    "bookworm-1 " + now, List.<String>of(),                      // another package list
                    "<no value> <no value>", List.<String>of(),                  // imported before the labels existed
                    key + " " + now, List.of("--refresh-base")).entrySet()) {
                Run r = build.apply(remade.getKey(), remade.getValue());
                assertThat(r.result().err()).as("%s", remade).doesNotContain("reusing");
                assertThat(r.calls()).as("%s", remade).contains("mmdebstrap");
                assertThat(r.calls()).as("%s", remade).anySatisfy(c -> assertThat(c).startsWith("podman import")
                        .contains("LABEL juneau.base-key=" + key, "LABEL juneau.base-made="));
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * On a fresh machine with buildah and podman both installed, the script picks podman (it imports the Debian base
     * itself); buildah chosen by hand imports it through a scratch container instead of failing. The builders are
     * stand-ins on PATH (a dry run only prints).
     */
    @Test
    void podmanIsPreferredAndBuildahCanImportTheDebianBase() throws Exception {
        Path dir = Files.createTempDirectory("images-builders");
        try {
            Path bin = Files.createDirectories(dir.resolve("bin"));
            for (String b : List.of("buildah", "podman")) {
                Files.writeString(bin.resolve(b), "#!/bin/sh\nexit 0\n");
                bin.resolve(b).toFile().setExecutable(true);
            }
            Map<String, String> path = Map.of("PATH", bin + ":" + System.getenv("PATH"));
            ProcessResult auto = run(List.of("--dry-run", "--base", "debian", "--base-cache", dir.resolve("c").toString()),
                    path);
            assertThat(auto.exit()).as(auto.err()).isZero();
            assertThat(auto.out()).contains("+ podman import ").doesNotContain("+ buildah");
            ProcessResult buildah = run(List.of("--dry-run", "--builder", "buildah", "--base", "debian", "--base-cache",
                    dir.resolve("c").toString()), path);
            assertThat(buildah.exit()).as(buildah.err()).isZero();
            assertThat(buildah.out().lines()).anySatisfy(l -> assertThat(l).startsWith("+ buildah add ").endsWith(".tar /"))
                    .anySatisfy(l -> assertThat(l).startsWith("+ buildah config --label juneau.base-tar="))
                    .anySatisfy(l -> assertThat(l).endsWith(" localhost/juneau/base-debian:bookworm")
                            .startsWith("+ buildah commit --rm "));
            assertThat(tagged(buildah.out().lines().toList())).hasSize(partsWithADockerfile().size())
                    .allSatisfy(l -> assertThat(l).startsWith("+ buildah bud --network=none"));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static List<String> tagged(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("+ ") && l.contains(" -t ")).toList();
    }

    @Test
    void theBuildScriptRefusesBadArgumentsInOneLine() throws Exception {
        for (List<String> args : List.of(List.of("--registry", "Not A Registry"), List.of("--bogus"), List.of("--tag"),
                List.of("--builder", "kaniko"), List.of("--base", "not an image"), List.of("--base"),
                List.of("--base-cache"), List.of("--oci-dir"))) {
            List<String> cmd = new ArrayList<>(List.of("--dry-run"));
            cmd.addAll(args);
            ProcessResult r = run(cmd);
            assertThat(r.exit()).as("%s", args).isEqualTo(2);
            assertThat(r.err().lines()).as("%s: %s", args, r.err()).hasSize(1);
            assertThat(r.out()).isEmpty();
        }
    }

    record ProcessResult(int exit, String out, String err) {
    }

    static List<String> script(String... args) throws Exception {
        ProcessResult r = run(List.of(args));
        assertThat(r.exit()).as(r.err()).isZero();
        return r.out().lines().toList();
    }

    static ProcessResult run(List<String> args) throws Exception {
        return run(args, Map.of());
    }

    static ProcessResult run(List<String> args, Map<String, String> env) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", DockerfilesTest.ROOT.resolve("bin/juneau-images").toString()));
        cmd.addAll(args);
        Path out = Files.createTempFile("images", ".out");
        Path err = Files.createTempFile("images", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return new ProcessResult(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static List<String> tags(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("+ ") && l.contains(" -t ")) {
                out.add(l.substring(l.indexOf(" -t ") + 4).split(" ")[0]);
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("installs")
    void controllerAndWebhookAreClusterCriticalWithADisruptionBudget(Install install) {
        for (String name : List.of("juneau-controller", "juneau-webhook")) {
            JsonNode deployment = install.get("Deployment", name);
            JsonNode template = deployment.path("spec").path("template");
            assertThat(template.path("spec").path("priorityClassName").asText()).as("%s in %s", name, install)
                    .isEqualTo("system-cluster-critical");
            PodDisruptionBudget pdb = (PodDisruptionBudget) KustomizeRenderTest.SERIALIZATION.convertValue(
                    install.get("PodDisruptionBudget", name), HasMetadata.class);
            assertThat(selects(pdb.getSpec().getSelector().getMatchLabels(), template.path("metadata").path("labels")))
                    .as("PDB %s selects the pods of Deployment %s", name, name).isTrue();
            int replicas = deployment.path("spec").path("replicas").asInt();
            assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isBetween(1, replicas - 1);
        }
    }

    @ParameterizedTest
    @MethodSource("installs")
    void metricsServicesReachTheMetricsPortOfEachPart(Install install) {
        Map<String, String> expectedPort = Map.of("controller", "http-metrics", "webhook", "https");
        for (Map.Entry<String, String> e : expectedPort.entrySet()) {
            String name = "juneau-" + e.getKey() + "-metrics";
            JsonNode svc = install.get("Service", name);
            assertThat(svc.path("metadata").path("labels").path("juneau.loutres.me/metrics").asText()).isEqualTo("true");
            JsonNode template = install.get("Deployment", "juneau-" + e.getKey()).path("spec").path("template");
            assertThat(selects(toMap(svc.path("spec").path("selector")), template.path("metadata").path("labels"))).isTrue();
            assertThat(svc.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo(e.getValue());
            assertThat(template.path("spec").path("containers").get(0).path("ports").findValuesAsText("name")).contains(e.getValue());
        }
    }

    @ParameterizedTest
    @MethodSource("installs")
    void networkPoliciesOpenOnlyTheWebhookPortAndTheMetricsPort(Install install) {
        List<NetworkPolicy> policies = install.ofKind("NetworkPolicy").stream()
                .map(o -> (NetworkPolicy) KustomizeRenderTest.SERIALIZATION.convertValue(o, HasMetadata.class)).toList();
        NetworkPolicy deny = policies.stream().filter(p -> p.getMetadata().getName().equals("juneau-default-deny-ingress")).findFirst().orElseThrow();
        assertThat(deny.getSpec().getPodSelector().getMatchLabels()).containsExactly(Map.entry("app.kubernetes.io/name", "juneau"));
        assertThat(deny.getSpec().getPolicyTypes()).containsExactly("Ingress");
        assertThat(deny.getSpec().getIngress()).isNullOrEmpty();

        Map<String, Integer> open = new HashMap<>();
        for (NetworkPolicy p : policies) {
            if (p.getSpec().getIngress() == null) {
                continue;
            }
            String component = p.getSpec().getPodSelector().getMatchLabels().get("app.kubernetes.io/component");
            p.getSpec().getIngress().forEach(rule -> rule.getPorts().forEach(port -> {
                assertThat(port.getProtocol()).isEqualTo("TCP");
                open.put(component, port.getPort().getIntVal());
            }));
        }
        assertThat(open).containsOnly(Map.entry("webhook", containerPort(install, "juneau-webhook", "https")),
                Map.entry("controller", containerPort(install, "juneau-controller", "http-metrics")));
        NetworkPolicy controller = policies.stream().filter(p -> p.getMetadata().getName().equals("juneau-controller")).findFirst().orElseThrow();
        assertThat(controller.getSpec().getIngress().get(0).getFrom()).singleElement()
                .satisfies(f -> assertThat(f.getNamespaceSelector().getMatchLabels())
                        .containsExactly(Map.entry("juneau.loutres.me/metrics-scraper", "true")));
    }

    @Test
    void theExampleOverlaySetsRegistryReservedCidrsApiServerAndServiceMonitor() {
        Install example = Install.example();
        Install plain = Install.certManager();
        assertThat(example.containers()).isNotEmpty().allSatisfy(c -> assertThat(c.path("image").asText())
                .startsWith("registry.example.com/platform/juneau/"));

        List<String> args = KustomizeRenderTest.texts(example.get("Deployment", "juneau-webhook").path("spec").path("template")
                .path("spec").path("containers").get(0).path("args"));
        List<String> plainArgs = KustomizeRenderTest.texts(plain.get("Deployment", "juneau-webhook").path("spec").path("template")
                .path("spec").path("containers").get(0).path("args"));
        assertThat(args).startsWith(plainArgs.toArray(String[]::new))
                .contains("--reserved-cidr=10.96.0.0/12", "--reserved-cidr=10.244.0.0/16", "--reserved-cidr=192.0.2.1/32");
        // every value is one the webhook accepts: a CIDR the admission settings parse
        new me.loutres.juneau.admission.AdmissionSettings(null, args.stream().filter(a -> a.startsWith("--reserved-cidr="))
                .map(a -> a.substring("--reserved-cidr=".length())).toList());

        NetworkPolicy webhook = (NetworkPolicy) KustomizeRenderTest.SERIALIZATION.convertValue(
                example.get("NetworkPolicy", "juneau-webhook"), HasMetadata.class);
        var from = webhook.getSpec().getIngress().get(0).getFrom();
        assertThat(from.stream().filter(f -> f.getIpBlock() != null).map(f -> f.getIpBlock().getCidr()))
                .containsExactly("192.0.2.10/31", "192.0.2.12/32");
        assertThat(from.stream().filter(f -> f.getNamespaceSelector() != null).map(f -> f.getNamespaceSelector().getMatchLabels()))
                .singleElement().satisfies(labels -> assertThat(labels).containsEntry("juneau.loutres.me/metrics-scraper", "true"));
        assertThat(plain.get("NetworkPolicy", "juneau-webhook").path("spec").path("ingress").get(0).has("from"))
                .as("the default install cannot know the API server's address and leaves the webhook port open").isFalse();

        JsonNode monitor = example.get("ServiceMonitor", "juneau");
        assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        Set<String> metricsPorts = new HashSet<>();
        for (JsonNode svc : example.ofKind("Service")) {
            if (selects(toMap(monitor.path("spec").path("selector").path("matchLabels")), svc.path("metadata").path("labels"))) {
                metricsPorts.addAll(svc.path("spec").path("ports").findValuesAsText("name"));
            }
        }
        assertThat(monitor.path("spec").path("endpoints").findValuesAsText("port")).containsExactlyInAnyOrderElementsOf(metricsPorts)
                .containsExactlyInAnyOrder("http-metrics", "https-metrics");
        assertThat(monitor.path("spec").path("endpoints").get(1).path("tlsConfig").path("serverName").asText())
                .isIn(JuneauAssert.serviceDnsNames());
        JuneauAssert.noneOfKind(plain, "ServiceMonitor");

        // the agents (host network, no Service) are scraped per pod, on the port their container names
        JsonNode pods = example.get("PodMonitor", "juneau-agent");
        JsonNode agent = example.get("DaemonSet", "juneau-agent").path("spec").path("template");
        assertThat(selects(toMap(pods.path("spec").path("selector").path("matchLabels")), agent.path("metadata").path("labels")))
                .as("the PodMonitor selects the agent's pods").isTrue();
        assertThat(pods.path("spec").path("podMetricsEndpoints").findValuesAsText("port")).singleElement()
                .isIn(agent.path("spec").path("containers").get(0).path("ports").findValuesAsText("name"));
        JuneauAssert.noneOfKind(plain, "PodMonitor");
    }

    @Test
    void crdSchemasListTheTwoModes() {
        Map<String, String> fields = Map.of("addresspools.juneau.loutres.me.yaml", "advertiseMode",
                "externalnetworks.juneau.loutres.me.yaml", "type");
        for (Map.Entry<String, String> e : fields.entrySet()) {
            JsonNode crd = Install.documents(Crds.COMMITTED.resolve(e.getKey())).get(0);
            JsonNode field = crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema")
                    .path("properties").path("spec").path("properties").path(e.getValue());
            assertThat(KustomizeRenderTest.texts(field.path("enum"))).as("%s %s", e.getKey(), e.getValue())
                    .containsExactlyInAnyOrder(me.loutres.juneau.api.JuneauConstants.MODE_BGP, me.loutres.juneau.api.JuneauConstants.MODE_ARP);
        }
    }

    private static int containerPort(Install install, String deployment, String portName) {
        for (JsonNode p : install.get("Deployment", deployment).path("spec").path("template").path("spec").path("containers").get(0).path("ports")) {
            if (portName.equals(p.path("name").asText())) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError(deployment + " has no port " + portName);
    }

    private static Map<String, String> toMap(JsonNode node) {
        Map<String, String> out = new HashMap<>();
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static boolean selects(Map<String, String> selector, JsonNode labels) {
        return !selector.isEmpty() && selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.path(e.getKey()).asText(null)));
    }
}
