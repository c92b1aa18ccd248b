package me.loutres.juneau.cli.validate;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import me.loutres.juneau.admission.AdmissionEngine;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.cli.HelpLayout;
import me.loutres.juneau.view.ClusterStateFiles;
import me.loutres.juneau.view.ManifestException;
import me.loutres.juneau.view.SnapshotClusterView;
import me.loutres.juneau.policy.ManagedServices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code juneau validate}: the webhook's rules over manifests in CI, with the VIP each Service would get. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Validate manifests offline with the webhook's rules, as the cluster would admit them:",
                "dependency order, mutation then validation, accepted objects joining a simulated cluster.",
                "Prints the VIP each accepted managed Service would get, or why it would stay Pending.",
                "Inputs: files and directories (recursively) as paths or with -f, - for standard input",
                "(helm template my-release ./chart | juneau validate -), -k DIR for a kustomization.",
                "Exit codes: 0 all accepted, 1 any rejected, 2 an unreadable input or bad usage.",
                "docs/ci.md shows it in GitHub Actions, GitLab CI and a pre-commit hook."})
public final class ValidateCommand implements Callable<Integer>, HelpLayout.UsageHint {
    public static final int EXIT_ACCEPTED = 0;
    public static final int EXIT_REJECTED = 1;
    public static final int EXIT_UNREADABLE = 2;

    public enum Format { text, json, junit, tap, sarif }

    @Parameters(paramLabel = "PATH", arity = "0..*",
            description = "Files or directories to validate, like -f.")
    List<Path> paths = new ArrayList<>();

    @Option(names = {"-f", "--filename"}, paramLabel = "PATH",
            description = "A YAML file, a directory (read recursively: *.yaml, *.yml, *.json) or - for standard input. "
                    + "Repeatable; a path without any object is an error (exit 2).")
    List<Path> files = new ArrayList<>();

    @Option(names = {"-k", "--kustomize"}, paramLabel = "DIR",
            description = "A kustomization directory, rendered with kubectl kustomize as kubectl apply -k would. Repeatable.")
    List<Path> kustomizations = new ArrayList<>();

    @Option(names = "--ignore", paramLabel = "GLOB",
            description = "Skip files and directories under a directory that match the glob (relative to the directory, "
                    + "or the name alone: --ignore 'demo/refused' --ignore '*.tmpl.yaml'). Repeatable; a .juneauignore "
                    + "file in a directory lists more, one a line.")
    List<String> ignores = new ArrayList<>();

    @Option(names = "--cluster-state", paramLabel = "FILE",
            description = "Objects already in the cluster (kubectl get -o yaml output, with status).")
    Path clusterState;

    @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT",
            description = "text (kubectl-style lines), json, junit (JUnit XML), tap (TAP 13) or sarif (SARIF 2.1.0, "
                    + "for GitHub code scanning). Default: ${DEFAULT-VALUE}.")
    Format output;

    @Option(names = "--summary",
            description = "Text: print only rejections, warnings and the counts. Other formats: also write the counts "
                    + "to standard error, the report on standard output staying as it is.")
    boolean summary;

    @Option(names = "--as", defaultValue = "ci", paramLabel = "USER",
            description = "The user the requests are made as. Default: ${DEFAULT-VALUE}.")
    String user;

    @Option(names = "--controller-username", paramLabel = "USER",
            description = "A controller identity the webhook is configured with (repeatable; default the install's).")
    List<String> controllerUsernames;

    @Option(names = "--reserved-cidr", paramLabel = "CIDR",
            description = "A CIDR the webhook is configured to keep out of AddressPools (repeatable).")
    List<String> reservedCidrs;

    @Option(names = "--manage-unclassed",
            description = "The install serves type: LoadBalancer Services without spec.loadBalancerClass too (the "
                    + "controller's and the webhook's flag, overlay manifests/overlays/default-class).")
    boolean manageUnclassed;

    @Override
    public String hint(CommandLine.ParameterException e) {
        List<CommandLine.Model.ArgSpec> args = new ArrayList<>();
        if (e.getArgSpec() != null) {
            args.add(e.getArgSpec());
        }
        if (e instanceof CommandLine.MissingParameterException m && m.getMissing() != null) {
            args.addAll(m.getMissing());
        }
        for (CommandLine.Model.ArgSpec a : args) {
            if (a instanceof CommandLine.Model.OptionSpec o && "-f".equals(o.shortestName())) {
                return "-f takes one path; repeat -f or list the paths after the options";
            }
            if (a instanceof CommandLine.Model.OptionSpec o && "-k".equals(o.shortestName())) {
                return "-k takes one kustomization directory; repeat -k for more";
            }
        }
        return null;
    }

    @Override
    public Integer call() {
        return run(System.in, System.out, System.err);
    }

    int run(InputStream stdin, PrintStream out, PrintStream err) {
        List<Path> inputs = new ArrayList<>(files);
        inputs.addAll(paths);
        if (inputs.isEmpty() && kustomizations.isEmpty()) {
            err.println("error: nothing to validate; name files or directories, - for standard input, or -k DIR for a "
                    + "kustomization (see 'juneau validate --help')");
            return EXIT_UNREADABLE;
        }
        AdmissionSettings settings;
        try {
            settings = new AdmissionSettings(controllerUsernames == null ? null : java.util.Set.copyOf(controllerUsernames),
                    reservedCidrs, null, ManagedServices.of(manageUnclassed));
        } catch (IllegalArgumentException e) {
            err.println("error: --reserved-cidr: " + e.getMessage());
            return EXIT_UNREADABLE;
        }
        SnapshotClusterView initial;
        try {
            initial = clusterState == null ? SnapshotClusterView.empty() : ClusterStateFiles.load(clusterState);
        } catch (ManifestException e) {
            // without the cluster the verdicts would be wrong: no report, only the reason
            err.println("error: " + e.getMessage());
            return EXIT_UNREADABLE;
        }
        ManifestReader.Inputs read = new ManifestReader(ignores, Kustomize.fromEnvironment(), stdin).read(inputs, kustomizations);
        read.notes().forEach(n -> err.println("note: " + n));
        List<Outcome> outcomes = new Validation(Validation.inProcess(new AdmissionEngine(settings)), initial, user,
                settings.managed()).run(read.objects());
        Reports.Report report = new Reports.Report(outcomes, read.failures(), read.rendered(), read.files());
        switch (output) {
            case json -> Reports.json(report, out);
            case junit -> Reports.junit(report, out);
            case tap -> Reports.tap(report, out);
            case sarif -> Reports.sarif(report, out);
            default -> Reports.text(report, out, err, summary);
        }
        out.flush();
        if (output != Format.text) {
            for (var f : read.failures()) {
                err.println("error: " + f.getMessage());
            }
            if (summary) {
                err.println(report.summary() + " (" + read.files() + " files)");
            }
        }
        if (!read.failures().isEmpty()) {
            return EXIT_UNREADABLE;
        }
        return report.rejected() == 0 ? EXIT_ACCEPTED : EXIT_REJECTED;
    }
}
