package me.loutres.juneau.webhook;

import static me.loutres.juneau.webhook.Reviews.managedService;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import me.loutres.juneau.tls.KeyStores;
import me.loutres.juneau.webhook.http.AdmissionServlet;
import me.loutres.juneau.webhook.server.HttpsConnectors;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built WAR file itself, deployed unchanged into a Jetty ee10 WebAppContext (a stand-in for any Servlet 6
 * container), configured only through context init parameters, and reached over HTTPS.
 */
class WarDeploymentIT {
    @TempDir
    Path dir;

    static Path builtWar() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("webhook-.*\\.war")).findFirst()
                    .orElseThrow(() -> new AssertionError("no target/webhook-*.war: run 'mvn -pl webhook verify' (package first)"));
        }
    }

    @Test
    void theWarCarriesItsLibrariesButNotTheContainers() throws Exception {
        try (ZipFile war = new ZipFile(builtWar().toFile())) {
            List<String> names = war.stream().map(ZipEntry::getName).toList();
            assertThat(names).contains("WEB-INF/web.xml",
                    "WEB-INF/classes/" + AdmissionServlet.class.getName().replace('.', '/') + ".class");
            assertThat(names).anyMatch(n -> n.matches("WEB-INF/lib/shared-model-.*\\.jar"));
            assertThat(names).anyMatch(n -> n.matches("WEB-INF/lib/certs-.*\\.jar"));
            assertThat(names).noneMatch(n -> n.startsWith("WEB-INF/lib/jetty-"));
            assertThat(names).noneMatch(n -> n.startsWith("WEB-INF/lib/jakarta.servlet-api"));
            String webXml = new String(war.getInputStream(war.getEntry("WEB-INF/web.xml")).readAllBytes(), StandardCharsets.UTF_8);
            assertThat(webXml).contains("version=\"6.0\"").contains("WebhookContextListener");
        }
    }

    @Test
    void theBuiltWarDeploysUnchangedAndServesReviews() throws Exception {
        TestPki pki = new TestPki(dir);
        var pair = pki.install();
        Path state = dir.resolve("state.yaml");
        try (InputStream in = getClass().getResourceAsStream("/cluster-state.yaml")) {
            Files.copy(in, state);
        }
        char[] password = "war-it".toCharArray();
        Server jetty = new Server();
        ServerConnector connector = HttpsConnectors.create(jetty, HttpsConnectors.sslContextFactory(
                KeyStores.fromPem(pair.certificatePem(), pair.keyPem(), password), password), "127.0.0.1", 0);
        jetty.addConnector(connector);
        WebAppContext webapp = new WebAppContext();
        webapp.setWar(builtWar().toAbsolutePath().toString());
        webapp.setContextPath("/");
        webapp.setTempDirectory(Files.createDirectories(dir.resolve("work")).toFile());
        webapp.setInitParameter(WebhookContextListener.CLUSTER_STATE, state.toString());
        webapp.setThrowUnavailableOnStartupException(true);
        jetty.setHandler(webapp);
        jetty.start();
        try {
            assertThat(webapp.isAvailable()).isTrue();
            // served from the WAR's own classes, not from the test class path
            Class<?> deployed = webapp.getClassLoader().loadClass(AdmissionServlet.class.getName());
            assertThat(deployed.getClassLoader()).isSameAs(webapp.getClassLoader());

            HttpClient client = HttpClient.newBuilder().sslContext(pki.clientContext()).build();
            String base = "https://localhost:" + connector.getLocalPort();
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/readyz")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

            Reviews.Builder good = Reviews.service("CREATE").object(managedService("web", "public", "Local", null));
            JsonNode allowed = post(client, base + "/validate/services", good.json());
            assertThat(allowed.at("/response/uid").asText()).isEqualTo(good.uid);
            assertThat(allowed.at("/response/allowed").asBoolean()).isTrue();

            Reviews.Builder bad = Reviews.service("CREATE").object(managedService("web", "nowhere", "Local", null));
            JsonNode denied = post(client, base + "/validate/services", bad.json());
            assertThat(denied.at("/response/allowed").asBoolean()).isFalse();
            assertThat(denied.at("/response/status/message").asText()).contains("nowhere");

            HttpResponse<String> get = client.send(HttpRequest.newBuilder(URI.create(base + "/validate/services")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(405);
        } finally {
            jetty.stop();
        }
    }

    private static JsonNode post(HttpClient client, String url, String json) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Reviews.JSON.readTree(r.body());
    }
}
