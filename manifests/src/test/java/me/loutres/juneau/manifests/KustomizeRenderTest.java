package me.loutres.juneau.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.StreamSupport;
import me.loutres.juneau.api.JuneauConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Both installs render with kubectl, every object parses, everything lands in juneau-system. */
class KustomizeRenderTest {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    static final String NS = JuneauConstants.SYSTEM_NAMESPACE;
    static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole",
            "ClusterRoleBinding", "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration");
    static final Set<String> CERT_MANAGER_KINDS = Set.of("Issuer", "Certificate", "ClusterIssuer");

    static List<Install> installs() {
        return Install.both();
    }

    @ParameterizedTest
    @MethodSource("installs")
    void everyObjectParsesAsItsKind(Install install) {
        assertThat(install.objects()).hasSizeGreaterThan(15);
        for (JsonNode o : install.objects()) {
            assertThat(o.path("apiVersion").asText()).as("apiVersion of %s", o).isNotEmpty();
            assertThat(o.path("metadata").path("name").asText()).as("name of %s", o).isNotEmpty();
            HasMetadata typed = SERIALIZATION.convertValue(o, HasMetadata.class);
            assertThat(typed.getKind()).isEqualTo(o.path("kind").asText());
            if (!CERT_MANAGER_KINDS.contains(typed.getKind())) {
                assertThat(typed).as("%s %s should map to a Kubernetes model class", typed.getKind(),
                        typed.getMetadata().getName()).isNotInstanceOf(GenericKubernetesResource.class);
            }
        }
        assertThat(install.ofKind("Deployment")).allSatisfy(d -> assertThat(SERIALIZATION.convertValue(d, HasMetadata.class))
                .isInstanceOf(Deployment.class));
        assertThat(SERIALIZATION.convertValue(install.get("ValidatingWebhookConfiguration",
                JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION), HasMetadata.class))
                .isInstanceOf(ValidatingWebhookConfiguration.class);
        assertThat(SERIALIZATION.convertValue(install.get("ClusterRole", "juneau-controller"), HasMetadata.class))
                .isInstanceOf(ClusterRole.class);
    }

    @ParameterizedTest
    @MethodSource("installs")
    void everythingNamespacedIsInJuneauSystem(Install install) {
        assertThat(SERIALIZATION.convertValue(install.get("Namespace", NS), HasMetadata.class)).isInstanceOf(Namespace.class);
        for (JsonNode o : install.objects()) {
            String kind = o.path("kind").asText();
            String ns = o.path("metadata").path("namespace").asText("");
            if (CLUSTER_SCOPED.contains(kind)) {
                assertThat(ns).as("%s %s is cluster-scoped", kind, o.path("metadata").path("name").asText()).isEmpty();
            } else {
                assertThat(ns).as("namespace of %s %s", kind, o.path("metadata").path("name").asText()).isEqualTo(NS);
            }
        }
        for (JsonNode binding : concat(install.ofKind("RoleBinding"), install.ofKind("ClusterRoleBinding"))) {
            for (JsonNode s : binding.path("subjects")) {
                assertThat(s.path("namespace").asText()).isEqualTo(NS);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("installs")
    void bothInstallsHaveTheSameCoreObjects(Install install) {
        List<String> names = install.objects().stream().map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText()).toList();
        assertThat(names).contains("Namespace/" + NS,
                "CustomResourceDefinition/addresspools.juneau.loutres.me",
                "CustomResourceDefinition/externalnetworks.juneau.loutres.me",
                "CustomResourceDefinition/serviceloadbalancers.juneau.loutres.me",
                "CustomResourceDefinition/arpadvertisements.juneau.loutres.me",
                "CustomResourceDefinition/bgppeers.juneau.loutres.me",
                "CustomResourceDefinition/bfdprofiles.juneau.loutres.me",
                "CustomResourceDefinition/bgpsessions.juneau.loutres.me",
                "CustomResourceDefinition/nodenetworks.juneau.loutres.me",
                "ServiceAccount/juneau-controller", "ClusterRole/juneau-controller", "ClusterRoleBinding/juneau-controller",
                "Role/juneau-controller-leader-election", "RoleBinding/juneau-controller-leader-election",
                "Deployment/juneau-controller",
                "ServiceAccount/juneau-webhook", "ClusterRole/juneau-webhook", "ClusterRoleBinding/juneau-webhook",
                "Deployment/juneau-webhook", "Service/" + JuneauConstants.WEBHOOK_SERVICE_NAME, "PodDisruptionBudget/juneau-webhook",
                "ValidatingWebhookConfiguration/" + JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION,
                "MutatingWebhookConfiguration/" + JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION);
        assertThat(names).doesNotHaveDuplicates();
    }

    @Test
    void certManagerInstallChainsSelfSignedIssuerCaCertificateCaIssuerServingCertificate() {
        Install install = Install.certManager();
        JuneauAssert.noneOfKind(install, "Job", "CronJob");
        JsonNode bootstrap = install.get("Issuer", "juneau-selfsigned");
        assertThat(bootstrap.path("spec").has("selfSigned")).isTrue();

        JsonNode caCert = install.get("Certificate", "juneau-webhook-ca");
        assertThat(caCert.path("spec").path("isCA").asBoolean()).isTrue();
        assertThat(caCert.path("spec").path("issuerRef").path("name").asText()).isEqualTo("juneau-selfsigned");
        assertThat(caCert.path("spec").path("issuerRef").path("kind").asText()).isEqualTo("Issuer");
        String caSecret = caCert.path("spec").path("secretName").asText();

        JsonNode caIssuer = install.get("Issuer", "juneau-ca");
        assertThat(caIssuer.path("spec").path("ca").path("secretName").asText()).isEqualTo(caSecret);

        JsonNode serving = install.get("Certificate", "juneau-webhook-tls");
        assertThat(serving.path("spec").path("issuerRef").path("name").asText()).isEqualTo("juneau-ca");
        assertThat(serving.path("spec").path("secretName").asText()).isEqualTo(JuneauConstants.WEBHOOK_TLS_SECRET);
        assertThat(texts(serving.path("spec").path("dnsNames"))).containsExactlyElementsOf(JuneauAssert.serviceDnsNames());
        assertThat(texts(serving.path("spec").path("usages"))).contains("server auth");
        assertThat(serving.path("spec").path("privateKey").path("algorithm").asText()).isEqualTo("ECDSA");

        String injectFrom = NS + "/" + serving.path("metadata").path("name").asText();
        for (String kind : List.of("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")) {
            for (JsonNode c : install.ofKind(kind)) {
                assertThat(c.path("metadata").path("annotations").path("cert-manager.io/inject-ca-from").asText())
                        .as("%s %s", kind, c.path("metadata").path("name").asText()).isEqualTo(injectFrom);
            }
        }
        JuneauAssert.webhookMountsSecret(install, serving.path("spec").path("secretName").asText());
    }

    @Test
    void selfSignedInstallRunsJuneauCertsInsteadOfCertManager() {
        Install install = Install.selfSigned();
        for (JsonNode o : install.objects()) {
            assertThat(o.path("apiVersion").asText()).doesNotStartWith("cert-manager.io");
            assertThat(o.path("metadata").path("annotations").has("cert-manager.io/inject-ca-from")).isFalse();
        }
        JsonNode job = install.get("Job", "juneau-certs");
        assertThat(SERIALIZATION.convertValue(job, HasMetadata.class)).isInstanceOf(Job.class);
        JsonNode pod = job.path("spec").path("template").path("spec");
        JsonNode generate = pod.path("initContainers").get(0);
        JsonNode inject = pod.path("containers").get(0);
        List<String> genArgs = texts(generate.path("args"));
        assertThat(genArgs).containsSequence("generate").contains(
                "--service=" + JuneauConstants.WEBHOOK_SERVICE_NAME, "--namespace=" + NS,
                "--secret=" + JuneauConstants.WEBHOOK_TLS_SECRET, "--ca-secret=" + JuneauConstants.WEBHOOK_CA_SECRET);
        String out = genArgs.stream().filter(a -> a.startsWith("--out=")).findFirst().orElseThrow().substring(6);
        List<String> injArgs = texts(inject.path("args"));
        assertThat(injArgs).contains("inject", "--ca-file=" + out + "/ca.crt",
                "--webhook-configuration=" + JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION,
                "--webhook-configuration=" + JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION);
        install.get("Service", JuneauConstants.WEBHOOK_SERVICE_NAME);
        JuneauAssert.webhookMountsSecret(install, JuneauConstants.WEBHOOK_TLS_SECRET);
        // the renewal CronJob runs exactly the Job's pod
        JsonNode cron = install.get("CronJob", "juneau-certs-renew");
        assertThat(cron.path("spec").path("jobTemplate").path("spec").path("template")).isEqualTo(job.path("spec").path("template"));
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("juneau-certs");
        // the keys stay in memory
        assertThat(pod.path("volumes").findValuesAsText("medium")).contains("Memory");
    }

    static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    static List<JsonNode> concat(List<JsonNode> a, List<JsonNode> b) {
        List<JsonNode> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
