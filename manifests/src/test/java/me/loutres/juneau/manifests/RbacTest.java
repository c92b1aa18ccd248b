package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Least privilege (docs/install.md): no wildcard anywhere, and nothing granted beyond src/test/resources/rbac-allowed.txt.
 * The controller and webhook modules check the other direction (every API call their code makes is granted).
 */
class RbacTest {
    static final List<Path> FILES = List.of(Path.of("base/controller/rbac.yaml"), Path.of("base/webhook/rbac.yaml"),
            Path.of("base/agent/rbac.yaml"), Path.of("overlays/self-signed/rbac.yaml"));
    static final Path ALLOWED = Path.of("src/test/resources/rbac-allowed.txt");
    static final Set<String> ROLE_KINDS = Set.of("Role", "ClusterRole");

    /** One (role, group, resource, verb, resourceName) permission; resourceName "" = any name. */
    record Grant(String role, String group, String resource, String verb, String resourceName) {
        @Override
        public String toString() {
            return role + " " + (group.isEmpty() ? "core" : group) + " " + resource + " " + verb
                    + (resourceName.isEmpty() ? "" : " " + resourceName);
        }
    }

    static Stream<Path> files() {
        return FILES.stream();
    }

    static List<JsonNode> objects(Path file) {
        assertThat(file).exists();
        return Install.documents(file);
    }

    static Set<Grant> allowed() throws IOException {
        Set<Grant> out = new HashSet<>();
        for (String line : Files.readAllLines(ALLOWED)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            String group = f[1].equals("core") ? "" : f[1];
            List<String> names = f.length > 4 ? List.of(f[4].split(",")) : List.of("");
            for (String verb : f[3].split(",")) {
                for (String name : names) {
                    out.add(new Grant(f[0], group, f[2], verb, name));
                }
            }
        }
        return out;
    }

    static List<Grant> granted(JsonNode role) {
        String id = role.path("kind").asText() + "/" + role.path("metadata").path("name").asText();
        List<Grant> out = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            List<String> names = KustomizeRenderTest.texts(rule.path("resourceNames"));
            for (String g : KustomizeRenderTest.texts(rule.path("apiGroups"))) {
                for (String r : KustomizeRenderTest.texts(rule.path("resources"))) {
                    for (String v : KustomizeRenderTest.texts(rule.path("verbs"))) {
                        for (String n : names.isEmpty() ? List.of("") : names) {
                            out.add(new Grant(id, g, r, v, n));
                        }
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("files")
    void noWildcardsAndNoNonResourceUrls(Path file) {
        for (JsonNode o : objects(file)) {
            if (!ROLE_KINDS.contains(o.path("kind").asText())) {
                continue;
            }
            assertThat(o.has("aggregationRule")).isFalse();
            for (JsonNode rule : o.path("rules")) {
                for (String field : List.of("apiGroups", "resources", "verbs", "resourceNames")) {
                    assertThat(KustomizeRenderTest.texts(rule.path(field)))
                            .as("%s %s in %s", field, o.path("metadata").path("name").asText(), file)
                            .noneMatch(s -> s.contains("*"));
                }
                assertThat(rule.has("nonResourceURLs")).isFalse();
                assertThat(KustomizeRenderTest.texts(rule.path("verbs"))).doesNotContain("escalate", "bind", "impersonate");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("files")
    void nothingBeyondTheAllowedList(Path file) throws IOException {
        Set<Grant> allowed = allowed();
        List<Grant> extra = new ArrayList<>();
        for (JsonNode o : objects(file)) {
            if (ROLE_KINDS.contains(o.path("kind").asText())) {
                granted(o).stream().filter(g -> !allowed.contains(g)).forEach(extra::add);
            }
        }
        assertThat(extra).as("grants in %s that %s does not allow (least privilege: remove them, or add them to the"
                + " list with a reason)", file, ALLOWED).isEmpty();
    }

    /**
     * The certs Job writes its two Secrets by name; the webhook reads (never writes) Secrets of juneau-system to check
     * that a BGPPeer's password Secret exists with its key; the agent gets a password Secret by name to give BIRD.
     * Nobody reads Secrets cluster-wide.
     */
    @Test
    void secretsAreReachableOnlyInJuneauSystemByTheCertsJobByNameTheWebhookReadOnlyAndTheAgentForBgpPasswords() {
        for (Path f : FILES) {
            for (JsonNode o : objects(f)) {
                if (!ROLE_KINDS.contains(o.path("kind").asText())) {
                    continue;
                }
                for (Grant g : granted(o)) {
                    if (!g.resource().equals("secrets")) {
                        continue;
                    }
                    assertThat(g.role()).as("%s", g).isIn("Role/juneau-certs", "Role/juneau-webhook-secrets",
                            "Role/juneau-agent-bgp-passwords");
                    if (g.role().equals("Role/juneau-agent-bgp-passwords")) {
                        // the BGPPeers' MD5 passwords: get (never list or watch), in juneau-system only
                        assertThat(g.verb()).as("%s", g).isEqualTo("get");
                    } else if (g.role().equals("Role/juneau-certs")) {
                        assertThat(g.verb().equals("create") || !g.resourceName().isEmpty()).as("%s", g).isTrue();
                    } else {
                        assertThat(g.verb()).as("%s", g).isIn("get", "list", "watch");
                    }
                }
            }
        }
    }

    @Test
    void bindingsGiveEachRoleToItsOwnServiceAccountInJuneauSystem() {
        for (Path f : FILES) {
            List<JsonNode> objects = objects(f);
            for (JsonNode o : objects) {
                String kind = o.path("kind").asText();
                if (kind.equals("Role")) {
                    assertThat(o.path("metadata").path("namespace").asText()).isEqualTo(JuneauConstants.SYSTEM_NAMESPACE);
                }
                if (!kind.endsWith("Binding")) {
                    continue;
                }
                JsonNode ref = o.path("roleRef");
                assertThat(ref.path("kind").asText()).isEqualTo(kind.equals("RoleBinding") ? "Role" : "ClusterRole");
                assertThat(objects).as("%s %s refers to a role of the same file", kind, o.path("metadata").path("name"))
                        .anyMatch(r -> r.path("kind").asText().equals(ref.path("kind").asText())
                                && r.path("metadata").path("name").asText().equals(ref.path("name").asText()));
                assertThat(o.path("subjects").size()).isEqualTo(1);
                JsonNode s = o.path("subjects").get(0);
                assertThat(s.path("kind").asText()).isEqualTo("ServiceAccount");
                assertThat(s.path("namespace").asText()).isEqualTo(JuneauConstants.SYSTEM_NAMESPACE);
                assertThat(ref.path("name").asText()).startsWith(s.path("name").asText());
            }
        }
    }

    @Test
    void theAllowedListParses() throws IOException {
        assertThat(allowed()).hasSizeGreaterThan(30)
                .contains(new Grant("ClusterRole/juneau-webhook", "", "nodes", "watch", ""));
    }
}
