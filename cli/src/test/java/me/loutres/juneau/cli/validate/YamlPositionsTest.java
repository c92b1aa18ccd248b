package me.loutres.juneau.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Field paths of denial messages, followed to their line and column in a multi-document YAML file. */
class YamlPositionsTest {
    static final String FILE = String.join("\n",
            "apiVersion: juneau.loutres.me/v1alpha1", // 1
            "kind: BGPPeer",                            // 2
            "metadata:",                                // 3
            "  name: tor",                              // 4
            "spec:",                                    // 5
            "  peerAddress: 198.18.0.1",                // 6
            "---",                                      // 7
            "apiVersion: v1",                           // 8
            "kind: Service",                            // 9
            "metadata:",                                // 10
            "  name: web",                              // 11
            "  annotations:",                           // 12
            "    juneau.loutres.me/load-balancer-external-network: lann", // 13
            "spec:",                                    // 14
            "  ports:",                                 // 15
            "  - port: 80",                             // 16
            "  - port: 81",                             // 17
            "    protocol: SCTP",                       // 18
            "");

    static YamlPositions.Position at(int objectLine, String message) {
        return YamlPositions.locate(new StringReader(FILE), objectLine, YamlPositions.fieldPath(message)).orElseThrow();
    }

    @Test
    void theFieldPathOfAMessageIsItsFirstPathWithIndexesAndQuotedKeys() {
        assertThat(YamlPositions.fieldPath("spec.bgp.peers[1].address: not an IP address"))
                .containsExactly("spec", "bgp", "peers", "1", "address");
        assertThat(YamlPositions.fieldPath("metadata.annotations[\"juneau.loutres.me/x\"]: unknown"))
                .containsExactly("metadata", "annotations", "juneau.loutres.me/x");
        assertThat(YamlPositions.fieldPath("the pool is full")).isEmpty();
        assertThat(YamlPositions.fieldPath("the specified spec is wrong")).isEmpty();
    }

    @Test
    void eachDocumentAnswersForItsOwnFields() {
        assertThat(at(1, "spec.peerAddress: 198.18.0.1 is the node's")).isEqualTo(new YamlPositions.Position(6, 3));
        assertThat(at(8, "spec.ports[1].protocol: \"SCTP\" is not supported"))
                .isEqualTo(new YamlPositions.Position(18, 5));
        assertThat(at(8, "metadata.annotations[juneau.loutres.me/load-balancer-external-network]: lann"))
                .isEqualTo(new YamlPositions.Position(13, 5));
    }

    @Test
    void aFieldNotInTheFileFallsBackToItsDeepestWrittenParent() {
        assertThat(at(8, "spec.externalTrafficPolicy: Local is required")).isEqualTo(new YamlPositions.Position(14, 1));
        assertThat(at(8, "spec.ports[5].port: out of range")).isEqualTo(new YamlPositions.Position(15, 3));
        assertThat(YamlPositions.locate(new StringReader(FILE), 3, List.of("spec"))).isEmpty();
    }
}
