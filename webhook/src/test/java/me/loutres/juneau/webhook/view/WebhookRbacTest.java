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
 * Least privilege (SPEC §6): the webhook's ClusterRole grants exactly what its informers use, nothing more (a stale
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

    @Test
    void theClusterRoleGrantsExactlyWhatTheInformersUse() throws Exception {
        Set<String> needed = new TreeSet<>();
        for (InformerClusterView.Access access : InformerClusterView.REQUIRED_ACCESS) {
            access.verbs().forEach(v -> needed.add(access.apiGroup() + "/" + access.resource() + ":" + v));
        }
        Set<String> granted = new TreeSet<>();
        for (JsonNode doc : documents()) {
            String kind = doc.path("kind").asText();
            if (kind.equals("ClusterRole") || kind.equals("Role")) {
                granted.addAll(triples(doc.path("rules")));
            }
        }
        assertThat(granted).isEqualTo(needed);
    }

    @Test
    void theRoleIsBoundToTheWebhookServiceAccountOnly() throws Exception {
        List<JsonNode> bindings = documents().stream().filter(d -> d.path("kind").asText().endsWith("Binding")).toList();
        assertThat(bindings).hasSize(1);
        JsonNode binding = bindings.get(0);
        assertThat(binding.at("/roleRef/name").asText()).isEqualTo("juneau-webhook");
        assertThat(binding.path("subjects")).hasSize(1);
        assertThat(binding.at("/subjects/0/kind").asText()).isEqualTo("ServiceAccount");
        assertThat(binding.at("/subjects/0/name").asText()).isEqualTo("juneau-webhook");
    }
}
