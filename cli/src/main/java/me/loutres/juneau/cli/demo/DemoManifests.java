package me.loutres.juneau.cli.demo;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;

/**
 * The demo's objects: the files of {@code manifests/examples/demo/}, which the build copies into the jar (so the demo
 * runs from any directory) and which {@code kubectl create -f} and {@code juneau validate} read as they are.
 */
final class DemoManifests {
    /** Where the files are shown to come from: the path in the repository. */
    static final String DIRECTORY = "manifests/examples/demo/";
    private static final String RESOURCES = "/me/loutres/juneau/cli/demo/manifests/";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private DemoManifests() {
    }

    /** The object of one file, e.g. {@code refused/typo-network.yaml}. */
    static <T extends HasMetadata> T load(String file, Class<T> type) throws IOException {
        try (InputStream in = DemoManifests.class.getResourceAsStream(RESOURCES + file)) {
            if (in == null) {
                throw new IOException("the demo manifest " + DIRECTORY + file + " is not in the jar; rebuild it (mvn -B package)");
            }
            T object = SERIALIZATION.unmarshal(in, type);
            if (object == null || object.getMetadata() == null) {
                throw new IOException(DIRECTORY + file + " holds no " + type.getSimpleName());
            }
            return object;
        }
    }

    /** The path a person would give kubectl. */
    static String path(String file) {
        return DIRECTORY + file;
    }
}
