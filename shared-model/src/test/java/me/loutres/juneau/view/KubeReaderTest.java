package me.loutres.juneau.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.nio.file.Path;
import me.loutres.juneau.api.v1alpha1.ExternalNetwork;
import me.loutres.juneau.api.v1alpha1.ExternalNetworkSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one reader of objects: JSON null is absent, bad content is one line naming field and value. */
class KubeReaderTest {

    static JsonNode yaml(String text) {
        try {
            return YamlDocuments.parse(Path.of("t.yaml"), text).get(0).content();
        } catch (ManifestException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            spec.ports: [null]                | {"kind":"Service","metadata":{"name":"a"},"spec":{"ports":[null]}}                  | spec.ports[0]: null is not a valid list entry; remove it or give it a value
            two null entries, all reported    | {"kind":"Service","metadata":{"name":"a"},"spec":{"ports":[null,{"port":1},null]}}   | spec.ports[0]: null is not a valid list entry; remove it or give it a value; spec.ports[2]: null is not a valid list entry; remove it or give it a value
            nested null entry                 | {"kind":"Service","metadata":{"name":"a"},"spec":{"ipFamilies":["IPv4",null]}}       | spec.ipFamilies[1]: null is not a valid list entry; remove it or give it a value
            no metadata                       | {"kind":"Service","spec":{}}                                                       | metadata: missing; every Service needs metadata with a name
            null metadata is no metadata      | {"kind":"Service","metadata":null}                                                 | metadata: missing; every Service needs metadata with a name
            metadata not a map                | {"kind":"Service","metadata":"web"}                                                | metadata: "web" has the wrong type for Service; expected an object
            a list where a map is expected    | {"kind":"Service","metadata":{"name":"a","labels":["x"]}}                          | metadata.labels: a list has the wrong type for Service; expected a map
            a number where a list is expected | {"kind":"Service","metadata":{"name":"a"},"spec":{"ports":80}}                     | spec.ports: 80 has the wrong type for Service; expected a list
            an annotation key with a slash    | {"kind":"Service","metadata":{"name":"a","annotations":{"a/b":["x"]}}}             | metadata.annotations["a/b"]: a list has the wrong type for Service; expected a string
            """)
    void badContentIsOneLineNamingFieldAndValue(String name, String json, String message) throws Exception {
        JsonNode tree = KubeObjects.mapper().readTree(json);
        assertThatThrownBy(() -> KubeReader.read(tree, Service.class, "Service"))
                .isInstanceOf(UnreadableObjectException.class)
                .hasMessage(message)
                .hasMessageNotContaining("Exception").hasMessageNotContaining("Cannot").hasMessageNotContaining("\n");
    }

    @Test
    void thousandsOfNullEntriesAreCountedNotEachListed() throws Exception {
        // found by the fuzzer: 40,000 null ports made a 3 MB message (and a reconcile event to match)
        String ports = String.join(",", java.util.Collections.nCopies(40_000, "null"));
        JsonNode service = KubeObjects.mapper().readTree(
                "{\"kind\":\"Service\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"ports\":[" + ports + "]}}");
        assertThatThrownBy(() -> KubeReader.read(service, Service.class, "Service"))
                .isInstanceOf(UnreadableObjectException.class)
                .hasMessageStartingWith("spec.ports[0]: null is not a valid list entry; remove it or give it a value; ")
                .hasMessageEndingWith("; and 39990 more problems like these")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(2_000));
    }

    @Test
    void managedFieldsAreTheApiServersBookkeepingAndAreNeitherBoundNorJudged() throws Exception {
        JsonNode service = KubeObjects.mapper().readTree("{\"kind\":\"Service\",\"metadata\":{\"name\":\"a\","
                + "\"annotations\":{\"x\":\"y\"},\"managedFields\":[{\"manager\":\"kubectl\",\"fieldsV1\":{\"f:spec\":{}}},"
                + "\"not an entry\",7]},\"spec\":{\"type\":\"LoadBalancer\"}}");
        String before = service.toString();
        Service s = KubeReader.read(service, Service.class, "Service");
        assertThat(s.getMetadata().getManagedFields()).isNullOrEmpty();
        assertThat(s.getMetadata().getName()).isEqualTo("a");
        assertThat(s.getMetadata().getAnnotations()).containsEntry("x", "y");
        assertThat(s.getSpec().getType()).isEqualTo("LoadBalancer");
        assertThat(service.toString()).as("the input tree is unchanged").isEqualTo(before);
    }

    @Test
    void emptyYamlValuesAreAbsent() {
        Service s = KubeReader.read(yaml("""
                apiVersion: v1
                kind: Service
                metadata:
                  name: a
                  labels:
                  annotations:
                  finalizers:
                spec:
                  type: LoadBalancer
                  externalTrafficPolicy:
                  selector:
                  ports:
                  ipFamilies:
                """), Service.class, "Service");
        assertThat(s.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(s.getMetadata().getAnnotations()).isNullOrEmpty();
        assertThat(s.getMetadata().getFinalizers()).isNullOrEmpty();
        assertThat(s.getSpec().getExternalTrafficPolicy()).isNull();
        assertThat(s.getSpec().getSelector()).isNullOrEmpty();
        assertThat(s.getSpec().getPorts()).isNullOrEmpty();
        assertThat(s.getSpec().getIpFamilies()).isNullOrEmpty();
        assertThat(s.getSpec().getType()).isEqualTo("LoadBalancer");
    }

    @Test
    void aQuotedEmptyStringStaysAString() {
        Service s = KubeReader.read(yaml("kind: Service\nmetadata: {name: a}\nspec: {externalTrafficPolicy: ''}\n"),
                Service.class, "Service");
        assertThat(s.getSpec().getExternalTrafficPolicy()).isEmpty();
    }

    @Test
    void aNullLabelOrAnnotationValueIsTheEmptyStringAsTheApiServerDecodesIt() {
        Service s = KubeReader.read(yaml("kind: Service\nmetadata:\n  name: a\n  labels: {tier:}\n  annotations: {note: ~}\n"),
                Service.class, "Service");
        assertThat(s.getMetadata().getLabels()).containsEntry("tier", "");
        assertThat(s.getMetadata().getAnnotations()).containsEntry("note", "");
    }

    @Test
    void normalizedDropsNullFieldsAtEveryDepthWithoutChangingTheInput() throws Exception {
        JsonNode in = KubeObjects.mapper().readTree("{\"a\":null,\"b\":{\"c\":null,\"d\":1},\"e\":[{\"f\":null},null]}");
        String before = in.toString();
        assertThat(KubeReader.normalized(in)).hasToString("{\"b\":{\"d\":1},\"e\":[{},null]}");
        assertThat(in).hasToString(before);
        JsonNode clean = KubeObjects.mapper().readTree("{\"a\":1}");
        assertThat(KubeReader.normalized(clean)).isSameAs(clean);
        assertThat(KubeReader.normalized(null)).isNull();
        assertThat(KubeReader.normalized(KubeObjects.mapper().nullNode())).isNull();
    }

    @Test
    void checkReportsTheSameProblemsForATypedObject() {
        ExternalNetwork bad = new ExternalNetwork();
        bad.getMetadata().setName("n");
        ExternalNetworkSpec spec = new ExternalNetworkSpec();
        spec.setType("arp");
        spec.setAddressPools(new java.util.ArrayList<>(java.util.Arrays.asList("pool-a", null)));
        bad.setSpec(spec);
        assertThat(KubeReader.check(bad)).contains("spec.addressPools[1]: null is not a valid list entry; remove it or give it a value");

        Service good = new ServiceBuilder().withNewMetadata().withName("a").endMetadata().withNewSpec().endSpec().build();
        assertThat(KubeReader.check(good)).isEmpty();
        assertThat(KubeReader.check(null)).contains("the object is missing");
    }
}
