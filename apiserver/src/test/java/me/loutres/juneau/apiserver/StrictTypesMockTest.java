package me.loutres.juneau.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import me.loutres.juneau.testing.CrdTypedFields;
import me.loutres.juneau.testing.CrdTypedFields.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The local API server refuses what kube-apiserver refuses, in its words: a value of another JSON type in any integer
 * or boolean field of a Juneau CRD (the table is read from the CRD schemas the server installs), spec and status
 * alike; and a body over 3 MiB is answered 413 to a client that sends all of it before reading.
 */
class StrictTypesMockTest extends ApiServerFixture {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static int names;

    static Stream<Arguments> wrongValues() {
        List<Arguments> rows = new ArrayList<>();
        for (Field f : CrdTypedFields.ofRepository()) {
            if (f.type().equals("boolean")) {
                rows.add(Arguments.of(f, F.numberNode(1), "integer"));
                rows.add(Arguments.of(f, F.textNode(""), "string"));
            } else {
                rows.add(Arguments.of(f, F.numberNode(1.5), "number"));
                rows.add(Arguments.of(f, F.textNode("1"), "string"));
            }
        }
        return rows.stream();
    }

    private String collection(Field f) {
        return "/apis/" + f.group() + "/" + f.version() + (f.namespaced() ? "/namespaces/default/" : "/") + f.plural();
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("wrongValues")
    void aValueOfAnotherJsonTypeIsRefusedWithKubeApiserversMessage(Field f, JsonNode value, String actual) {
        String name = "strict-" + (++names);
        Reply r;
        if (f.part().equals("status")) {
            // status is ignored on create (status subresource), as in kube-apiserver: written through /status
            Reply created = post(collection(f), f.minimalObject(name).toString());
            assertThat(created.code()).as(created.raw().body()).isEqualTo(201);
            com.fasterxml.jackson.databind.node.ObjectNode update = f.objectWith(name, value);
            ((com.fasterxml.jackson.databind.node.ObjectNode) update.get("metadata")).put("resourceVersion",
                    created.body().path("metadata").path("resourceVersion").asText());
            r = put(collection(f) + "/" + name + "/status", update.toString());
        } else {
            r = post(collection(f), f.objectWith(name, value).toString());
        }
        assertThat(r.code()).as(r.raw().body()).isEqualTo(422);
        String path = f.concretePath();
        assertThat(r.message()).contains(path + ": Invalid value: \"" + actual + "\": " + path
                + " in body must be of type " + f.type() + ": \"" + actual + "\"");
    }

    static Stream<Arguments> integerSpecFields() {
        return CrdTypedFields.ofRepository().stream().filter(f -> f.type().equals("integer") && f.part().equals("spec"))
                .map(Arguments::of);
    }

    /**
     * kube-apiserver's {@code type: integer} (kube-openapi's type validator) takes a whole JSON number written with a
     * fraction, {@code 7.0}, and stores the integer {@code 7}: so does this server (docs/design.md, "Strict types").
     */
    @ParameterizedTest(name = "{0} = 7.0")
    @MethodSource("integerSpecFields")
    void aWholeNumberWithAFractionIsStoredAsTheIntegerAsKubeApiserverDoes(Field f) {
        String name = "whole-" + (++names);
        com.fasterxml.jackson.databind.node.ObjectNode object = f.minimalObject(name);
        // the required fields the minimal object leaves out, then the field under test over them
        com.fasterxml.jackson.databind.node.ObjectNode spec = F.objectNode();
        switch (f.kind()) {
            case "BGPPeer" -> spec.put("peerASN", 65000).put("myASN", 65001).put("peerAddress", "192.0.2.1");
            case "ExternalNetwork" -> spec.put("type", "bgp").set("addressPools", F.arrayNode().add("pool"));
            default -> {
            }
        }
        merge(object, F.objectNode().set("spec", spec));
        merge(object, f.objectWith(name, F.numberNode(7.0)));
        Reply r = post(collection(f), object.toString());
        assertThat(r.code()).as(r.raw().body()).isEqualTo(201);
        String pointer = "/" + f.concretePath().replaceAll("\\[(\\d+)]", ".$1").replace('.', '/');
        assertThat(r.body().at(pointer).isIntegralNumber()).as("%s in %s", pointer, r.raw().body()).isTrue();
        assertThat(r.body().at(pointer).asLong()).isEqualTo(7);
    }

    /** {@code over}'s fields into {@code base}, objects merged, anything else replaced. */
    private static void merge(com.fasterxml.jackson.databind.node.ObjectNode base, JsonNode over) {
        over.properties().forEach(e -> {
            if (e.getValue().isObject() && base.path(e.getKey()).isObject()) {
                merge((com.fasterxml.jackson.databind.node.ObjectNode) base.get(e.getKey()), e.getValue());
            } else {
                base.set(e.getKey(), e.getValue().deepCopy());
            }
        });
    }

    @Test
    void aStatusThatIsNotAnObjectIsRefused() {
        Field session = CrdTypedFields.ofRepository().stream().filter(f -> f.kind().equals("BGPSession")).findFirst()
                .orElseThrow();
        Reply created = post(collection(session), session.minimalObject("s1").toString());
        assertThat(created.code()).as(created.raw().body()).isEqualTo(201);
        com.fasterxml.jackson.databind.node.ObjectNode update = (com.fasterxml.jackson.databind.node.ObjectNode) created.body();
        update.put("status", "Established");
        Reply r = put(collection(session) + "/s1/status", update.toString());
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.message()).contains("status: Invalid value: \"string\": status in body must be of type object: "
                + "\"string\"");
    }

    @Test
    void aClientThatSendsAWhole12MiBBodyBeforeReadingReadsIts413() throws Exception {
        // large enough that what is left unread after the first 3 MiB does not fit in the sockets' buffers
        assertThat(statusLineAfterSending("Authorization: Bearer " + Identities.ADMIN_TOKEN + "\r\n",
                12 * 1024 * 1024, 0)).startsWith("HTTP/1.1 413 ");
    }

    @Test
    void aClientRefusedBeforeItsBodyIsReadStillReadsTheAnswer() throws Exception {
        // a 401 (no token) is decided before the body is read, and the body comes after the server has judged the
        // headers, as kubectl's may: a server that answered and closed at once would break the client's write
        // (kubectl printed "broken pipe" for a 403 so in UpRbacKubectlIT)
        assertThat(statusLineAfterSending("", 2 * 1024 * 1024, 500)).startsWith("HTTP/1.1 401 ");
    }

    /** POSTs a Service body of {@code size} spaces, pausing between headers and body, and reads the status line. */
    private String statusLineAfterSending(String extraHeaders, int size, long pauseMillis) throws Exception {
        byte[] body = new byte[size];
        java.util.Arrays.fill(body, (byte) ' ');
        try (SSLSocket socket = (SSLSocket) http.sslContext().getSocketFactory().createSocket("127.0.0.1",
                server.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/namespaces/default/services HTTP/1.1\r\nHost: localhost\r\n" + extraHeaders
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
            out.write(body);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                line.write(c);
            }
            return line.toString(StandardCharsets.US_ASCII);
        }
    }
}
