package me.loutres.juneau.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** One rendered install (a kustomize build) as a list of objects. */
record Install(String name, Path dir, List<JsonNode> objects) {
    static final Path CERT_MANAGER_DIR = Path.of(".");
    static final Path SELF_SIGNED_DIR = Path.of("overlays", "self-signed");
    static final Path EXAMPLE_DIR = Path.of("overlays", "example");
    static final Path DEFAULT_CLASS_DIR = Path.of("overlays", "default-class");
    static final ObjectMapper YAML = new YAMLMapper();

    static Install certManager() {
        return render("cert-manager (kubectl apply -k manifests/)", CERT_MANAGER_DIR);
    }

    static Install selfSigned() {
        return render("self-signed (kubectl apply -k manifests/overlays/self-signed)", SELF_SIGNED_DIR);
    }

    /** The example overlay with every day-one setting (registry, reserved CIDRs, API server, ServiceMonitor). */
    static Install example() {
        return render("example overlay (kubectl apply -k manifests/overlays/example)", EXAMPLE_DIR);
    }

    /** The default install serving unclassed LoadBalancer Services too (docs/install.md, "Unclassed Services"). */
    static Install defaultClass() {
        return render("default-class overlay (kubectl apply -k manifests/overlays/default-class)", DEFAULT_CLASS_DIR);
    }

    /** Every container (init containers too) of every pod template, with the object that owns it. */
    List<JsonNode> containers() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode pod : podSpecs()) {
            pod.path("initContainers").forEach(out::add);
            pod.path("containers").forEach(out::add);
        }
        return out;
    }

    /** The pod specs of Deployments, DaemonSets, Jobs and CronJobs. */
    List<JsonNode> podSpecs() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode o : objects) {
            switch (o.path("kind").asText()) {
                case "Deployment", "DaemonSet", "Job" -> out.add(o.path("spec").path("template").path("spec"));
                case "CronJob" -> out.add(o.path("spec").path("jobTemplate").path("spec").path("template").path("spec"));
                default -> {
                }
            }
        }
        return out;
    }

    static List<Install> both() {
        return List.of(certManager(), selfSigned());
    }

    static Install render(String name, Path dir) {
        return new Install(name, dir, documents(Kubectl.kustomize(dir)));
    }

    /** Every non-empty document of a multi-document YAML text. */
    static List<JsonNode> documents(String yaml) {
        List<JsonNode> out = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode()) {
                    out.add(n);
                }
            }
        } catch (IOException e) {
            throw new AssertionError("unparsable YAML: " + e.getMessage(), e);
        }
        return out;
    }

    static List<JsonNode> documents(Path file) {
        try {
            return documents(Files.readString(file));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    static List<Path> yamlFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    List<JsonNode> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
    }

    Optional<JsonNode> find(String kind, String name) {
        return objects.stream().filter(o -> kind.equals(o.path("kind").asText())
                && name.equals(o.path("metadata").path("name").asText())).findFirst();
    }

    JsonNode get(String kind, String name) {
        return find(kind, name).orElseThrow(() -> new AssertionError(this.name + " renders no " + kind + " " + name));
    }

    @Override
    public String toString() {
        return name;
    }
}
