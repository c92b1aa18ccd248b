package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import me.loutres.juneau.view.KubeObjects;

/**
 * One object of the manifests, where it came from, and how kubectl would name it.
 *
 * @param file     the file as the user named it (or found under a named directory)
 * @param document 1-based document index in the file (items of a List share their document's index)
 * @param line     the line where the object starts
 * @param order    position among all objects read, for file order within a kind
 */
public record ManifestObject(Path file, int document, int line, int order, JsonNode content) {

    public String apiVersion() {
        return content.path("apiVersion").asText();
    }

    public String group() {
        return KubeObjects.group(apiVersion());
    }

    public String kind() {
        return content.path("kind").asText();
    }

    public String name() {
        return content.path("metadata").path("name").asText();
    }

    /** The namespace written in the manifest, "" when none. */
    public String namespace() {
        return content.path("metadata").path("namespace").asText("");
    }

    /** kubectl's name of the object: {@code service/web}, {@code addresspool.juneau.loutres.me/pool-a}. */
    public String reference() {
        String g = group();
        return kind().toLowerCase(java.util.Locale.ROOT) + (g.isEmpty() ? "" : "." + g) + "/" + name();
    }

    /** {@code file, document N} for the end of an output line. */
    public String where() {
        return file + ", document " + document;
    }
}
