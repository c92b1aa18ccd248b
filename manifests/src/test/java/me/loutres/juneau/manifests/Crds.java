package me.loutres.juneau.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.AddressPool;
import me.loutres.juneau.api.v1alpha1.BFDProfile;
import me.loutres.juneau.api.v1alpha1.BGPPeer;
import me.loutres.juneau.api.v1alpha1.BGPSession;
import me.loutres.juneau.api.v1alpha1.NodeNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;

/**
 * The CRDs of base/crds: the output of crd-generator-maven-plugin (target/generated-crds, written during
 * process-classes) with one mechanical fix. The generator sorts printer columns by jsonPath; kubectl shows them in
 * CRD order, so they are put back in the order the Java type declares them (docs/phases-and-conditions.md lists them in that order).
 */
final class Crds {
    static final Path GENERATED = Path.of("target", "generated-crds");
    static final Path COMMITTED = Path.of("base", "crds");
    static final String REFRESH_COMMAND = "mvn -B -pl manifests -am verify -Djuneau.updateCrds=true";
    static final String HEADER = "# Generated from the Java types in shared-model (me.loutres.juneau.api.v1alpha1) by\n"
            + "# crd-generator-maven-plugin; printer columns in declaration order. Do not edit: refresh with\n"
            + "#   " + REFRESH_COMMAND + "\n";

    static final List<Class<? extends HasMetadata>> TYPES = List.of(AddressPool.class, ExternalNetwork.class,
            ServiceLoadBalancer.class, ARPAdvertisement.class, BGPPeer.class, BFDProfile.class, BGPSession.class,
            NodeNetwork.class);

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Crds() {
    }

    /** The file name under base/crds for a CRD, e.g. {@code addresspools.juneau.loutres.me.yaml}. */
    static String fileName(Class<? extends HasMetadata> type) {
        return HasMetadata.getFullResourceName(type) + ".yaml";
    }

    /** Expected content of every committed CRD file, by file name, from the freshly generated ones. */
    static Map<String, String> expected() throws IOException {
        if (!Files.isDirectory(GENERATED)) {
            throw new AssertionError(GENERATED + " is missing: crd-generator-maven-plugin runs in process-classes;"
                    + " run the tests through Maven (" + REFRESH_COMMAND + ")");
        }
        Map<String, String> out = new TreeMap<>();
        for (Class<? extends HasMetadata> type : TYPES) {
            String name = HasMetadata.getFullResourceName(type);
            Path generated = GENERATED.resolve(name + "-v1.yml");
            if (!Files.exists(generated)) {
                throw new AssertionError("the generator wrote no CRD for " + type.getSimpleName() + " (" + generated + ")");
            }
            out.put(fileName(type), finish(Files.readString(generated), type));
        }
        try (Stream<Path> files = Files.list(GENERATED)) {
            List<String> unexpected = files.map(p -> p.getFileName().toString())
                    .filter(f -> TYPES.stream().noneMatch(t -> f.equals(HasMetadata.getFullResourceName(t) + "-v1.yml")))
                    .toList();
            if (!unexpected.isEmpty()) {
                throw new AssertionError("the generator found custom resources not listed in Crds.TYPES: " + unexpected);
            }
        }
        return out;
    }

    /** Generator output -> committed content: our header and printer columns in declaration order. */
    static String finish(String generatedYaml, Class<? extends HasMetadata> type) {
        ObjectNode crd = (ObjectNode) SERIALIZATION.unmarshal(generatedYaml, JsonNode.class);
        List<String> order = new ArrayList<>();
        for (AdditionalPrinterColumn c : type.getAnnotationsByType(AdditionalPrinterColumn.class)) {
            order.add(c.name());
        }
        for (JsonNode version : crd.path("spec").path("versions")) {
            JsonNode columns = version.get("additionalPrinterColumns");
            if (columns instanceof ArrayNode array) {
                List<JsonNode> sorted = new ArrayList<>();
                array.forEach(sorted::add);
                sorted.sort((a, b) -> Integer.compare(rank(order, a), rank(order, b)));
                array.removeAll();
                sorted.forEach(array::add);
            }
        }
        String yaml = SERIALIZATION.asYaml(crd);
        return HEADER + (yaml.startsWith("---\n") ? yaml.substring(4) : yaml);
    }

    private static int rank(List<String> order, JsonNode column) {
        int i = order.indexOf(column.path("name").asText());
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
