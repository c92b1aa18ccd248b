package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.view.KubeObjects;
import me.loutres.juneau.view.ManifestException;

/**
 * The output formats of {@code juneau validate}: text, json, junit, tap and sarif. Each is complete on its own: an
 * input that could not be read is an entry of its own (file, line, reason) beside the verdicts, so a CI that shows
 * only the report file still shows why the run failed.
 */
final class Reports {
    static final String UNREADABLE = "Unreadable";

    /** The verdicts and the inputs that could not be read. */
    record Report(List<Outcome> outcomes, List<ManifestException> failures, Map<Path, Path> rendered, int files) {
        long accepted() {
            return outcomes.stream().filter(Outcome::accepted).count();
        }

        long rejected() {
            return outcomes.size() - accepted();
        }

        /** {@code 3 accepted, 1 rejected} (and {@code , 1 unreadable} when an input could not be read). */
        String summary() {
            return accepted() + " accepted, " + rejected() + " rejected"
                    + (failures.isEmpty() ? "" : ", " + failures.size() + " unreadable");
        }
    }

    private Reports() {
    }

    /** The line printed for an accepted object (kubectl's verb, then where it came from, then the VIP forecast). */
    static String acceptedLine(Outcome o) {
        StringBuilder sb = new StringBuilder(o.object().reference()).append(' ').append(o.verb());
        if (!o.checked()) {
            sb.append(" (no Juneau rules for ").append(o.object().kind()).append(')');
        }
        sb.append(" [").append(o.object().where()).append(']');
        if (o.forecast() != null) {
            sb.append(": ").append(o.forecast().describe());
        }
        return sb.toString();
    }

    static String line(Outcome o) {
        return o.accepted() ? acceptedLine(o) : o.errorLine() + " [" + o.object().where() + "]";
    }

    /**
     * kubectl-style lines on {@code out}, the unreadable inputs as {@code error:} lines on {@code err}; with
     * {@code onlyProblems} the accepted objects without a warning are left out (the summary still counts them).
     */
    static void text(Report r, PrintStream out, PrintStream err, boolean onlyProblems) {
        for (ManifestException f : r.failures()) {
            err.println("error: " + f.getMessage());
        }
        for (Outcome o : r.outcomes()) {
            if (onlyProblems && o.accepted() && o.warnings().isEmpty()) {
                continue;
            }
            for (String w : o.warnings()) {
                out.println("Warning: " + w);
            }
            out.println(line(o));
        }
        out.println(r.summary());
    }

    static void json(Report r, PrintStream out) {
        ObjectNode root = KubeObjects.mapper().createObjectNode();
        ArrayNode list = root.putArray("objects");
        for (Outcome o : r.outcomes()) {
            ObjectNode n = list.addObject();
            n.put("file", o.object().file().toString());
            n.put("document", o.object().document());
            n.put("line", o.object().line());
            n.put("apiVersion", o.object().apiVersion());
            n.put("kind", o.object().kind());
            if (!o.object().namespace().isEmpty()) {
                n.put("namespace", o.object().namespace());
            }
            n.put("name", o.object().name());
            n.put("operation", o.operation());
            n.put("accepted", o.accepted());
            n.put("checked", o.checked());
            if (!o.accepted()) {
                n.put("reason", o.reason());
                if (o.webhook() != null) {
                    n.put("webhook", o.webhook());
                }
                n.put("message", o.message());
                n.put("output", o.errorLine());
            }
            ArrayNode warnings = n.putArray("warnings");
            o.warnings().forEach(warnings::add);
            if (o.forecast() != null) {
                ObjectNode f = n.putObject("simulation");
                f.put("phase", o.forecast().phase());
                f.put("reason", o.forecast().reason());
                if (o.forecast().vip() != null) {
                    f.put("vip", o.forecast().vip());
                    f.put("addressPool", o.forecast().pool());
                }
                f.put("externalNetwork", o.forecast().network());
                f.put("message", o.forecast().message());
                if (o.forecast().allocated()) {
                    ArrayNode may = f.putArray("mayAdvertise");
                    o.forecast().mayAdvertise().forEach(may::add);
                    ArrayNode leftOut = f.putArray("leftOut");
                    o.forecast().leftOut().forEach(leftOut::add);
                }
            }
        }
        if (!r.failures().isEmpty()) {
            ArrayNode unreadable = root.putArray("unreadable");
            for (ManifestException f : r.failures()) {
                unreadable.addObject().put("file", f.file().toString()).put("line", f.line()).put("message", reason(f))
                        .put("output", "error: " + f.getMessage());
            }
        }
        root.put("accepted", r.accepted());
        root.put("rejected", r.rejected());
        root.put("unreadableInputs", r.failures().size());
        print(out, root);
    }

    /** JUnit XML, one testcase per object and per unreadable input, as GitLab, Jenkins and GitHub reporters read it. */
    static void junit(Report r, PrintStream out) {
        List<Outcome> outcomes = r.outcomes();
        long failures = r.rejected();
        int errors = r.failures().size();
        int tests = outcomes.size() + errors;
        out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        out.println("<testsuites name=\"juneau validate\" tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\""
                + errors + "\">");
        out.println("  <testsuite name=\"juneau validate\" tests=\"" + tests + "\" failures=\"" + failures
                + "\" errors=\"" + errors + "\" skipped=\"0\">");
        for (ManifestException f : r.failures()) {
            out.println("    <testcase classname=\"" + xml(f.file().toString()) + "\" name=\""
                    + xml(f.file() + (f.line() > 0 ? ":" + f.line() : "") + " (unreadable)") + "\">");
            out.println("      <error type=\"" + UNREADABLE + "\" message=\"" + xml(reason(f)) + "\">"
                    + xml("error: " + f.getMessage()) + "</error>");
            out.println("    </testcase>");
        }
        for (Outcome o : outcomes) {
            String ns = o.object().namespace().isEmpty() ? "" : " -n " + o.object().namespace();
            out.print("    <testcase classname=\"" + xml(o.object().file().toString()) + "\" name=\""
                    + xml(o.object().reference() + ns + " (document " + o.object().document() + ")") + "\"");
            StringBuilder sysout = new StringBuilder();
            o.warnings().forEach(w -> sysout.append("Warning: ").append(w).append('\n'));
            if (o.accepted()) {
                sysout.append(acceptedLine(o)).append('\n');
            }
            out.println(">");
            if (!o.accepted()) {
                out.println("      <failure type=\"" + o.reason() + "\" message=\""
                        + xml(o.message()) + "\">" + xml(o.errorLine()) + "</failure>");
            }
            if (sysout.length() > 0) {
                out.println("      <system-out>" + xml(sysout.toString()) + "</system-out>");
            }
            out.println("    </testcase>");
        }
        out.println("  </testsuite>");
        out.println("</testsuites>");
    }

    /** TAP version 13: one test point per object and per unreadable input, the details in a YAML block. */
    static void tap(Report r, PrintStream out) {
        out.println("TAP version 13");
        out.println("1.." + (r.failures().size() + r.outcomes().size()));
        int n = 0;
        for (ManifestException f : r.failures()) {
            out.println("not ok " + (++n) + " - " + tapText(f.file() + (f.line() > 0 ? ":" + f.line() : "")) + " unreadable");
            out.println("  ---");
            out.println("  message: " + yamlString(reason(f)));
            out.println("  severity: fail");
            out.println("  file: " + yamlString(f.file().toString()));
            out.println("  line: " + f.line());
            out.println("  ...");
        }
        for (Outcome o : r.outcomes()) {
            String ns = o.object().namespace().isEmpty() ? "" : " -n " + o.object().namespace();
            String description = tapText(o.object().reference() + ns + " [" + o.object().where() + "]");
            for (String w : o.warnings()) {
                out.println("# Warning: " + tapText(w));
            }
            if (o.accepted()) {
                out.println("ok " + (++n) + " - " + description + (o.forecast() == null ? ""
                        : " " + tapText(o.forecast().describe())));
            } else {
                out.println("not ok " + (++n) + " - " + description);
                out.println("  ---");
                out.println("  message: " + yamlString(o.message()));
                out.println("  severity: fail");
                out.println("  reason: " + o.reason());
                out.println("  output: " + yamlString(o.errorLine()));
                out.println("  file: " + yamlString(o.object().file().toString()));
                out.println("  line: " + o.object().line());
                out.println("  ...");
            }
        }
        out.println("# " + r.summary());
    }

    /**
     * SARIF 2.1.0 for GitHub code scanning: a result per refusal and per unreadable input (level error) and per
     * admission warning (level warning), located at the file, line and column of the field the message names
     * ({@link YamlPositions}), else at the object's first line.
     */
    static void sarif(Report r, PrintStream out) {
        ObjectNode root = KubeObjects.mapper().createObjectNode();
        root.put("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
        root.put("version", "2.1.0");
        ObjectNode run = root.putArray("runs").addObject();
        ObjectNode driver = run.putObject("tool").putObject("driver");
        driver.put("name", "juneau validate");
        ArrayNode rules = driver.putArray("rules");
        rule(rules, "denied", "An admission webhook of Juneau denied the object",
                "The cluster would refuse this object: the message names the field, the value and what is accepted.");
        rule(rules, "no-such-kind", "The kind does not exist in Juneau's API",
                "The cluster has no such kind or version; check apiVersion and kind, and that the CRDs are installed.");
        rule(rules, "unreadable-object", "The object cannot be read as its kind",
                "A field has the wrong type for the kind; the message names it.");
        rule(rules, "unreadable-input", "An input could not be read",
                "The file is not valid YAML, not UTF-8, missing, or a document is not a complete Kubernetes object.");
        rule(rules, "warning", "The cluster would accept the object with a warning",
                "Admission accepted the object and said something the author should know, e.g. a field it changed.");
        ArrayNode results = run.putArray("results");
        for (ManifestException f : r.failures()) {
            result(results, "unreadable-input", "error", "error: " + f.getMessage(), sarifFile(r, f.file()), f.line());
        }
        for (Outcome o : r.outcomes()) {
            Path file = sarifFile(r, o.object().file());
            int line = r.rendered().containsKey(o.object().file()) ? 0 : o.object().line();
            for (String w : o.warnings()) {
                result(results, "warning", "warning", o.object().reference() + " [" + o.object().where() + "]: Warning: " + w,
                        file, at(o.object(), line, w));
            }
            if (!o.accepted()) {
                String rule = switch (o.reason()) {
                    case Outcome.NOT_FOUND -> "no-such-kind";
                    case Outcome.BAD_REQUEST -> "unreadable-object";
                    default -> "denied";
                };
                result(results, rule, "error", o.errorLine() + " [" + o.object().where() + "]", file,
                        at(o.object(), line, o.message()));
            }
        }
        print(out, root);
    }

    /** Where GitHub should show a result: the file, or for rendered output the kustomization's file. */
    private static Path sarifFile(Report r, Path file) {
        Path dir = r.rendered().get(file);
        if (dir == null) {
            return file;
        }
        return ManifestFiles.KUSTOMIZATION_FILES.stream().map(dir::resolve).filter(java.nio.file.Files::isRegularFile)
                .findFirst().orElse(dir.resolve("kustomization.yaml"));
    }

    private static void rule(ArrayNode rules, String id, String shortText, String fullText) {
        ObjectNode rule = rules.addObject();
        rule.put("id", id);
        rule.putObject("shortDescription").put("text", shortText);
        rule.putObject("fullDescription").put("text", fullText);
    }

    /**
     * The region of a result: the field the message names (its key's line and column in the YAML file), else the
     * object's first line; none for rendered output (line 0).
     */
    private static YamlPositions.Position at(ManifestObject object, int line, String message) {
        if (line <= 0) {
            return new YamlPositions.Position(0, 0);
        }
        List<String> path = YamlPositions.fieldPath(message);
        return path.isEmpty() ? new YamlPositions.Position(line, 0)
                : YamlPositions.locate(object.file(), line, path).orElse(new YamlPositions.Position(line, 0));
    }

    private static void result(ArrayNode results, String ruleId, String level, String message, Path file, int line) {
        result(results, ruleId, level, message, file, new YamlPositions.Position(line, 0));
    }

    private static void result(ArrayNode results, String ruleId, String level, String message, Path file,
            YamlPositions.Position at) {
        ObjectNode result = results.addObject();
        result.put("ruleId", ruleId);
        result.put("level", level);
        result.putObject("message").put("text", message);
        ObjectNode physical = result.putArray("locations").addObject().putObject("physicalLocation");
        physical.putObject("artifactLocation").put("uri", uri(file));
        if (at.line() > 0) {
            ObjectNode region = physical.putObject("region");
            region.put("startLine", at.line());
            if (at.column() > 0) {
                region.put("startColumn", at.column());
            }
        }
    }

    /** A relative URI reference for a path as the user named it (spaces and the like percent-encoded). */
    static String uri(Path file) {
        String path = file.toString().replace(java.io.File.separatorChar, '/');
        try {
            return new URI(null, null, path, null).toASCIIString();
        } catch (URISyntaxException e) {
            return "unknown";
        }
    }

    /** The reason of a failure without its {@code file:line:} prefix. */
    static String reason(ManifestException f) {
        String prefix = f.file() + (f.line() > 0 ? ":" + f.line() : "") + ": ";
        String m = f.getMessage();
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    private static void print(PrintStream out, ObjectNode root) {
        try {
            out.println(KubeObjects.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A TAP description stays on its line, and a '#' would start a directive. */
    private static String tapText(String s) {
        return s.replaceAll("\\R", " ").replace("#", "\\#");
    }

    /** A YAML double-quoted string (JSON's quoting is valid YAML). */
    private static String yamlString(String s) {
        try {
            return KubeObjects.mapper().writeValueAsString(s == null ? "" : s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String xml(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        sb.append(' '); // not allowed in XML 1.0
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
