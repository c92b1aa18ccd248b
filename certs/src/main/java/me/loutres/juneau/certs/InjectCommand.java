package me.loutres.juneau.certs;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.tls.InvalidTlsMaterialException;
import me.loutres.juneau.tls.Pem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code juneau certs inject}: the CA bundle into the webhook configurations' caBundle. */
@Command(name = "inject", mixinStandardHelpOptions = true,
        description = {"Set clientConfig.caBundle of every webhook in the Validating and Mutating webhook configurations.",
                "Each --webhook-configuration NAME is looked up as both kinds; a name that exists as neither is an error and nothing is changed."})
public final class InjectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--ca-file", required = true, paramLabel = "FILE", description = "PEM CA bundle (e.g. ca.crt written by 'certs generate').")
    Path caFile;
    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "kubeconfig (default: in-cluster, then ~/.kube/config).")
    Path kubeconfig;
    @Option(names = "--webhook-configuration", paramLabel = "NAME",
            description = "Webhook configuration name (repeatable; default: "
                    + JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION + " and " + JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION + ").")
    List<String> names = new ArrayList<>();

    private final ClientFactory clients;

    public InjectCommand() {
        this(ClientFactory.DEFAULT);
    }

    InjectCommand(ClientFactory clients) {
        this.clients = clients;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            String pem = MaterialFiles.read(caFile)
                    .orElseThrow(() -> new UsageException("--ca-file " + caFile + ": file not found"));
            List<X509Certificate> cas;
            try {
                cas = Pem.readCertificates(pem);
            } catch (InvalidTlsMaterialException e) {
                throw new UsageException("--ca-file " + caFile + ": " + e.getMessage());
            }
            for (X509Certificate c : cas) {
                if (c.getBasicConstraints() < 0) {
                    throw new UsageException("--ca-file " + caFile + ": '" + c.getSubjectX500Principal().getName()
                            + "' is not a CA certificate; pass the CA bundle (ca.crt), not tls.crt");
                }
            }
            String bundle = Base64.getEncoder().encodeToString(Pem.certificates(cas).getBytes(StandardCharsets.US_ASCII));
            List<String> targets = names.isEmpty()
                    ? List.of(JuneauConstants.VALIDATING_WEBHOOK_CONFIGURATION, JuneauConstants.MUTATING_WEBHOOK_CONFIGURATION)
                    : List.copyOf(names);
            try (KubernetesClient client = clients.create(kubeconfig)) {
                for (CaBundleInjector.Outcome o : new CaBundleInjector(client).inject(targets, bundle)) {
                    out.println(o);
                }
            } catch (KubernetesClientException e) {
                throw ApiErrors.failure("talk to the API server", e);
            }
            out.flush();
            return 0;
        } catch (UsageException e) {
            err.println("juneau certs inject: " + e.getMessage());
            return 2;
        } catch (CommandFailedException e) {
            err.println("juneau certs inject: " + e.getMessage());
            return 1;
        }
    }
}
