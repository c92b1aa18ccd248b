package me.loutres.juneau.webhook.view;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Least privilege (docs/install.md): the webhook's ClusterRole grants exactly what its informers use, nothing more (a stale
 * extra grant fails here) and nothing less (a new informer without its grant would never sync in a cluster).
 */
class WebhookRbacTest {
    private static final Path RBAC = Path.of("..", "manifests", "base", "webhook", "rbac.yaml");

    private static List<JsonNode> documents() throws Exception {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class)
                .readValues(Files.readString(RBAC))) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    private static Set<String> triples(JsonNode rules) {
        Set<String> out = new TreeSet<>();
        for (JsonNode rule : rules) {
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        out.add(group.asText() + "/" + resource.asText() + ":" + verb.asText());
                    }
                }
            }
        }
        return out;
    }

    /** Each grant with where it holds: "cluster" for the ClusterRole, the namespace for a Role. */
    @Test
    void theRolesGrantExactlyWhatTheInformersUseWhereTheyUseIt() throws Exception {
        Set<String> needed = new TreeSet<>();
        for (InformerClusterView.Access access : InformerClusterView.REQUIRED_ACCESS) {
            String where = access.namespace() == null ? "cluster " : access.namespace() + " ";
            access.verbs().forEach(v -> needed.add(where + access.apiGroup() + "/" + access.resource() + ":" + v));
        }
        Set<String> granted = new TreeSet<>();
        for (JsonNode doc : documents()) {
            String kind = doc.path("kind").asText();
            if (kind.equals("ClusterRole") || kind.equals("Role")) {
                String where = kind.equals("ClusterRole") ? "cluster " : doc.at("/metadata/namespace").asText() + " ";
                triples(doc.path("rules")).forEach(t -> granted.add(where + t));
            }
        }
        assertThat(granted).isEqualTo(needed);
        assertThat(granted).as("Secrets are readable in juneau-system only")
                .filteredOn(g -> g.contains("/secrets:")).allMatch(g -> g.startsWith("juneau-system "));
    }

    @Test
    void theRolesAreBoundToTheWebhookServiceAccountOnly() throws Exception {
        List<JsonNode> bindings = documents().stream().filter(d -> d.path("kind").asText().endsWith("Binding")).toList();
        assertThat(bindings).extracting(b -> b.path("kind").asText() + "/" + b.at("/roleRef/name").asText())
                .containsExactlyInAnyOrder("ClusterRoleBinding/juneau-webhook", "RoleBinding/juneau-webhook-secrets");
        for (JsonNode binding : bindings) {
            assertThat(binding.path("subjects")).hasSize(1);
            assertThat(binding.at("/subjects/0/kind").asText()).isEqualTo("ServiceAccount");
            assertThat(binding.at("/subjects/0/name").asText()).isEqualTo("juneau-webhook");
        }
    }
}
