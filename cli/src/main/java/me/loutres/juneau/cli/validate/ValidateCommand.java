package me.loutres.juneau.cli.validate;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.SnapshotClusterView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code juneau validate}: the webhook's rules over manifests in CI, with the VIP each Service would get. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Validate manifests offline with the webhook's rules, as the cluster would admit them:",
                "dependency order, mutation then validation, accepted objects joining a simulated cluster.",
                "Prints the VIP each accepted managed Service would get, or why it would stay Pending.",
                "Exit codes: 0 all accepted, 1 any rejected, 2 unreadable input or no objects."})
public final class ValidateCommand implements Callable<Integer> {
    public static final int EXIT_ACCEPTED = 0;
    public static final int EXIT_REJECTED = 1;
    public static final int EXIT_UNREADABLE = 2;

    public enum Format { text, json, junit }

    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "PATH",
            description = "A YAML file, a directory (read recursively: *.yaml, *.yml, *.json) or - for standard input. "
                    + "Repeatable; a path without any object is an error (exit 2).")
    List<Path> paths;

    @Option(names = "--cluster-state", paramLabel = "FILE",
            description = "Objects already in the cluster (kubectl get -o yaml output, with status).")
    Path clusterState;

    @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT",
            description = "text (kubectl-style lines), json or junit. Default: ${DEFAULT-VALUE}.")
    Format output;

    @Option(names = "--as", defaultValue = "ci", paramLabel = "USER",
            description = "The user the requests are made as. Default: ${DEFAULT-VALUE}.")
    String user;

    @Option(names = "--controller-username", paramLabel = "USER",
            description = "A controller identity the webhook is configured with (repeatable; default the install's).")
    List<String> controllerUsernames;

    @Option(names = "--reserved-cidr", paramLabel = "CIDR",
            description = "A CIDR the webhook is configured to keep out of AddressPools (repeatable).")
    List<String> reservedCidrs;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        AdmissionSettings settings;
        try {
            settings = new AdmissionSettings(controllerUsernames == null ? null : java.util.Set.copyOf(controllerUsernames),
                    reservedCidrs);
        } catch (IllegalArgumentException e) {
            err.println("error: --reserved-cidr: " + e.getMessage());
            return EXIT_UNREADABLE;
        }
        SnapshotClusterView initial;
        List<ManifestObject> objects;
        try {
            initial = clusterState == null ? SnapshotClusterView.empty() : ClusterStateFiles.load(clusterState);
            objects = ManifestReader.read(paths);
        } catch (ManifestException e) {
            err.println("error: " + e.getMessage());
            return EXIT_UNREADABLE;
        }
        List<Outcome> outcomes = new Validation(Validation.inProcess(new AdmissionEngine(settings)), initial, user).run(objects);
        switch (output) {
            case json -> Reports.json(outcomes, out);
            case junit -> Reports.junit(outcomes, out);
            default -> Reports.text(outcomes, out);
        }
        out.flush();
        return Reports.accepted(outcomes) == outcomes.size() ? EXIT_ACCEPTED : EXIT_REJECTED;
    }
}
