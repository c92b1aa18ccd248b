package me.loutres.juneau.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.fabric8.kubernetes.api.model.Service;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import me.loutres.juneau.testing.CrdTypedFields;
import me.loutres.juneau.testing.CrdTypedFields.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strict types (docs/design.md): the one reader refuses a value of another JSON type instead of coercing it, for
 * every integer, number and boolean field of every CRD (the table is read from the generated CRDs, so a new field is
 * covered without being listed here), and for a spec or status that is not an object.
 */
class StrictTypesTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<Field> FIELDS = CrdTypedFields.ofRepository();

    static Stream<Arguments> wrongValues() {
        List<Arguments> rows = new ArrayList<>();
        for (Field f : FIELDS) {
            List<JsonNode> bad = f.type().equals("boolean")
                    ? List.of(F.numberNode(1), F.textNode(""), F.textNode("true"), F.numberNode(0.5))
                    : f.type().equals("integer")
                            ? List.of(F.numberNode(1.5), F.textNode("1"), F.textNode(""), F.booleanNode(true))
                            : List.of(F.textNode("1.5"), F.textNode(""), F.booleanNode(true));
            bad.forEach(v -> rows.add(Arguments.of(f, v)));
        }
        return rows.stream();
    }

    @Test
    void theTableCoversTheFieldsTheIssueNamed() {
        assertThat(FIELDS).extracting(f -> f.kind() + " " + f.path())
                .contains("BGPPeer spec.peerASN", "BGPPeer spec.ebgpMultiHop", "ExternalNetwork spec.bgp.localPref",
                        "BFDProfile spec.passiveMode", "BGPSession status.routesAdvertised")
                .hasSizeGreaterThan(20);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("wrongValues")
    void aValueOfAnotherJsonTypeIsRefusedNamingFieldAndValue(Field field, JsonNode value) {
        Class<?> type = KubeObjects.typedClass(field.group() + "/" + field.kind());
        JsonNode object = field.objectWith("strict", value);
        String expected = field.type().equals("boolean") ? "true or false"
                : field.type().equals("integer") ? "an integer" : "a number";
        assertThatThrownBy(() -> KubeReader.read(object, type, field.kind()))
                .isInstanceOf(UnreadableObjectException.class)
                .hasMessage(field.concretePath() + ": " + KubeReader.shortValue(value) + " has the wrong type for "
                        + field.kind() + "; expected " + expected);
    }

    @ParameterizedTest(name = "{0} = its own type")
    @MethodSource("rightValues")
    void theFieldsOwnJsonTypeIsRead(Field field, JsonNode value) {
        Class<?> type = KubeObjects.typedClass(field.group() + "/" + field.kind());
        assertThat(KubeReader.read(field.objectWith("strict", value), type, field.kind())).isNotNull();
    }

    static Stream<Arguments> rightValues() {
        return FIELDS.stream().map(f -> Arguments.of(f, f.type().equals("boolean") ? F.booleanNode(true)
                : f.type().equals("integer") ? F.numberNode(7) : F.numberNode(1.5)));
    }

    /** kube-apiserver's {@code type: integer} takes a whole number written with a fraction or an exponent. */
    static Stream<Arguments> wholeNumbers() {
        return FIELDS.stream().filter(f -> f.type().equals("integer"))
                .map(f -> Arguments.of(f, F.numberNode(7.0)));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("wholeNumbers")
    void aWholeNumberWithAFractionIsReadAsTheIntegerAsKubeApiserverReadsIt(Field field, JsonNode value) {
        Class<?> type = KubeObjects.typedClass(field.group() + "/" + field.kind());
        Object read = KubeReader.read(field.objectWith("strict", value), type, field.kind());
        String pointer = "/" + field.concretePath().replaceAll("\\[(\\d+)]", ".$1").replace('.', '/');
        JsonNode back = KubeObjects.mapper().valueToTree(read).at(pointer);
        assertThat(back.isIntegralNumber()).as("%s read back as %s", pointer, back).isTrue();
        assertThat(back.asLong()).isEqualTo(7);
    }

    @Test
    void numbersKubeApiserverRefusesForAnIntegerStayRefused() {
        Field peerAsn = FIELDS.stream().filter(f -> (f.kind() + " " + f.path()).equals("BGPPeer spec.peerASN"))
                .findFirst().orElseThrow();
        Class<?> type = KubeObjects.typedClass(peerAsn.group() + "/" + peerAsn.kind());
        // beyond 2^53 a JSON number is no exact integer; kube-openapi's IsFloat64AJSONInteger refuses it too
        for (JsonNode v : List.of(F.numberNode(1.5), F.numberNode(9.007199254740994e15), F.numberNode(-0.5))) {
            assertThatThrownBy(() -> KubeReader.read(peerAsn.objectWith("strict", v), type, peerAsn.kind()))
                    .as("%s", v).isInstanceOf(UnreadableObjectException.class);
        }
        assertThat(KubeObjects.isWholeJsonInteger(1.0)).isTrue();
        assertThat(KubeObjects.isWholeJsonInteger(9007199254740992d)).isTrue();
        assertThat(KubeObjects.isWholeJsonInteger(9007199254740994d)).isFalse();
        assertThat(KubeObjects.isWholeJsonInteger(Double.NaN)).isFalse();
    }

    static Stream<Arguments> partsOfTheWrongType() {
        Set<String> kinds = new LinkedHashSet<>();
        FIELDS.forEach(f -> kinds.add(f.group() + "/" + f.kind()));
        List<Arguments> rows = new ArrayList<>();
        for (String kind : kinds) {
            for (String part : List.of("spec", "status")) {
                for (JsonNode v : List.of(F.textNode("up"), F.numberNode(5), F.booleanNode(true), F.arrayNode())) {
                    rows.add(Arguments.of(kind, part, v));
                }
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} {1} = {2}")
    @MethodSource("partsOfTheWrongType")
    void aSpecOrStatusThatIsNotAnObjectIsRefused(String groupKind, String part, JsonNode value) {
        String kind = groupKind.substring(groupKind.indexOf('/') + 1);
        JsonNode object = F.objectNode().put("apiVersion", "juneau.loutres.me/v1alpha1").put("kind", kind)
                .setAll(java.util.Map.of("metadata", F.objectNode().put("name", "strict"), part, value));
        assertThatThrownBy(() -> KubeReader.read(object, KubeObjects.typedClass(groupKind), kind))
                .isInstanceOf(UnreadableObjectException.class)
                .hasMessageStartingWith(part + ": " + KubeReader.shortValue(value) + " ");
    }

    @Test
    void aStatusStringIsNoStatus() throws Exception {
        JsonNode session = KubeObjects.mapper().readTree("{\"apiVersion\":\"juneau.loutres.me/v1alpha1\","
                + "\"kind\":\"BGPSession\",\"metadata\":{\"name\":\"tor-1.node-a\"},\"status\":\"Established\"}");
        assertThatThrownBy(() -> KubeReader.read(session, me.loutres.juneau.api.v1alpha1.BGPSession.class, "BGPSession"))
                .isInstanceOf(UnreadableObjectException.class)
                .hasMessage("status: \"Established\" has the wrong type for BGPSession; expected an object");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a number for a string | {"kind":"Service","metadata":{"name":"a"},"spec":{"type":5}}                       | spec.type: 5 has the wrong type for Service; expected a string
            a boolean for a string | {"kind":"Service","metadata":{"name":"a","labels":{"x":true}}}                    | metadata.labels.x: true has the wrong type for Service; expected a string
            1.5 for a port        | {"kind":"Service","metadata":{"name":"a"},"spec":{"ports":[{"port":1.5}]}}         | spec.ports[0].port: 1.5 has the wrong type for Service; expected an integer
            a string for a port   | {"kind":"Service","metadata":{"name":"a"},"spec":{"ports":[{"port":"80"}]}}        | spec.ports[0].port: "80" has the wrong type for Service; expected an integer
            """)
    void builtInKindsAreReadStrictlyToo(String name, String json, String message) throws Exception {
        JsonNode tree = KubeObjects.mapper().readTree(json);
        assertThatThrownBy(() -> KubeReader.read(tree, Service.class, "Service"))
                .isInstanceOf(UnreadableObjectException.class).hasMessage(message);
    }
}
