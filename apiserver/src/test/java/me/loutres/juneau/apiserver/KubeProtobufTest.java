package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Authorization;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The protobuf bodies kubectl sends for built-in kinds, read and written with client-java-proto's messages. */
class KubeProtobufTest {
    static byte[] envelope(String apiVersion, String kind, ByteString raw) {
        byte[] inner = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind)).setRaw(raw)
                .setContentEncoding("").setContentType("").build().toByteArray();
        byte[] out = Arrays.copyOf(new byte[] {'k', '8', 's', 0}, 4 + inner.length);
        System.arraycopy(inner, 0, out, 4, inner.length);
        return out;
    }

    /** ObjectMeta as Go writes it: every non-pointer field, empty or not. */
    static Meta.ObjectMeta.Builder goMeta(String name) {
        return Meta.ObjectMeta.newBuilder().setName(name).setGenerateName("").setNamespace("").setSelfLink("")
                .setUid("").setResourceVersion("").setGeneration(0).setCreationTimestamp(Meta.Time.newBuilder());
    }

    @Test
    void aSecretAsKubectlCreateSecretGenericSendsItReadsAsTheJsonKubectlWouldSend() throws Exception {
        V1.Secret secret = V1.Secret.newBuilder().setMetadata(goMeta("bgp-password"))
                .putData("password", ByteString.copyFromUtf8("s3cret")).setType("").build();
        ObjectNode json = KubeProtobuf.decode(envelope("v1", "Secret", secret.toByteString()));
        assertThat(json).isEqualTo(Json.MAPPER.readTree("""
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"bgp-password"},
                 "data":{"password":"czNjcmV0"}}"""));
    }

    @Test
    void aServiceKeepsItsPortsIntOrStringLabelsWithEmptyValuesAndPointerFalse() throws Exception {
        V1.Service svc = V1.Service.newBuilder().setMetadata(goMeta("web").putLabels("tier", ""))
                .setSpec(V1.ServiceSpec.newBuilder().setType("LoadBalancer").setAllocateLoadBalancerNodePorts(false)
                        .addPorts(V1.ServicePort.newBuilder().setName("http").setPort(80).setProtocol("TCP")
                                .setTargetPort(IntStr.IntOrString.newBuilder().setType(1).setStrVal("http")))
                        .addPorts(V1.ServicePort.newBuilder().setName("alt").setPort(8080).setNodePort(0)
                                .setTargetPort(IntStr.IntOrString.newBuilder().setType(0).setIntVal(9090))))
                .build();
        ObjectNode json = KubeProtobuf.decode(envelope("v1", "Service", svc.toByteString()));
        assertThat(json.path("metadata").path("labels")).isEqualTo(Json.MAPPER.readTree("{\"tier\":\"\"}"));
        assertThat(json.path("spec")).isEqualTo(Json.MAPPER.readTree("""
                {"type":"LoadBalancer","allocateLoadBalancerNodePorts":false,"ports":[
                  {"name":"http","protocol":"TCP","port":80,"targetPort":"http"},
                  {"name":"alt","port":8080,"targetPort":9090}]}"""));
    }

    @Test
    void anAnswerIsTheEnvelopeWithTheMessageAndReadsBackTheSame() throws Exception {
        JsonNode stored = Json.MAPPER.readTree("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default","uid":"u-1",
                 "resourceVersion":"7","creationTimestamp":"2026-12-08T01:02:03Z","labels":{"a":"b"},
                 "managedFields":[{"manager":"kubectl-create","operation":"Update","apiVersion":"v1",
                   "time":"2026-12-08T01:02:03Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}]},
                 "data":{"k":"v"},"binaryData":{"b":"AAE="}}""");
        ResourceType cm = new Registry().find("v1", "configmaps").orElseThrow();
        byte[] bytes = KubeProtobuf.encode(cm, stored).orElseThrow();
        Runtime.Unknown unknown = Runtime.Unknown.parseFrom(Arrays.copyOfRange(bytes, 4, bytes.length));
        assertThat(unknown.getTypeMeta().getKind()).isEqualTo("ConfigMap");
        V1.ConfigMap parsed = V1.ConfigMap.parseFrom(unknown.getRaw());
        assertThat(parsed.getDataMap()).containsEntry("k", "v");
        assertThat(parsed.getMetadata().getCreationTimestamp().getSeconds())
                .isEqualTo(java.time.Instant.parse("2026-12-08T01:02:03Z").getEpochSecond());
        assertThat(KubeProtobuf.decode(bytes)).isEqualTo(stored);
    }

    @Test
    void aReviewReadsAsItsSpec() throws Exception {
        V1Authorization.SelfSubjectAccessReview review = V1Authorization.SelfSubjectAccessReview.newBuilder()
                .setMetadata(goMeta("")).setSpec(V1Authorization.SelfSubjectAccessReviewSpec.newBuilder()
                        .setResourceAttributes(V1Authorization.ResourceAttributes.newBuilder().setNamespace("")
                                .setVerb("create").setGroup("").setResource("secrets").setName("")))
                .build();
        ObjectNode json = KubeProtobuf.decode(envelope("authorization.k8s.io/v1", "SelfSubjectAccessReview",
                review.toByteString()));
        assertThat(json.path("spec")).isEqualTo(Json.MAPPER.readTree(
                "{\"resourceAttributes\":{\"verb\":\"create\",\"resource\":\"secrets\"}}"));
        assertThat(json.has("metadata")).as("an ObjectMeta of zero values only").isTrue();
    }

    @Test
    void aFieldTheLibraryDoesNotKnowIsRefusedNotDropped() {
        V1.Secret secret = V1.Secret.newBuilder().setMetadata(goMeta("s")).setUnknownFields(UnknownFieldSet
                .newBuilder().addField(99, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build()).build();
        assertThatThrownBy(() -> KubeProtobuf.decode(envelope("v1", "Secret", secret.toByteString())))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(415);
                    assertThat(e.getMessage()).contains("#99", "send JSON");
                });
    }

    @Test
    void aKindWithoutAMessageOrABodyWithoutTheEnvelopeIsAClearRefusal() {
        assertThatThrownBy(() -> KubeProtobuf.decode(envelope("coordination.k8s.io/v1", "Lease", ByteString.EMPTY)))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(415));
        assertThatThrownBy(() -> KubeProtobuf.decode("{}".getBytes()))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(400));
        assertThat(KubeProtobuf.message("v1", "DeleteOptions")).isPresent();
        assertThat(KubeProtobuf.message("v1", "Secret")).isPresent();
    }
}
