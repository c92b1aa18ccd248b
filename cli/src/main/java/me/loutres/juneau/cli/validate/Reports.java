package me.loutres.juneau.cli.validate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.List;
import me.loutres.juneau.view.KubeObjects;

/** The three output formats of {@code juneau validate}. */
final class Reports {
    private Reports() {
    }

    static long accepted(List<Outcome> outcomes) {
        return outcomes.stream().filter(Outcome::accepted).count();
    }

    static String summary(List<Outcome> outcomes) {
        return accepted(outcomes) + " accepted, " + (outcomes.size() - accepted(outcomes)) + " rejected";
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

    static void text(List<Outcome> outcomes, PrintStream out) {
        for (Outcome o : outcomes) {
            for (String w : o.warnings()) {
                out.println("Warning: " + w);
            }
            out.println(o.accepted() ? acceptedLine(o) : o.errorLine() + " [" + o.object().where() + "]");
        }
        out.println(summary(outcomes));
    }

    static void json(List<Outcome> outcomes, PrintStream out) {
        ObjectNode root = KubeObjects.mapper().createObjectNode();
        ArrayNode list = root.putArray("objects");
        for (Outcome o : outcomes) {
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
        root.put("accepted", accepted(outcomes));
        root.put("rejected", outcomes.size() - accepted(outcomes));
        try {
            out.println(KubeObjects.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** JUnit XML, one testcase per object, as CI systems (GitLab, Jenkins, GitHub test reporters) read it. */
    static void junit(List<Outcome> outcomes, PrintStream out) {
        long failures = outcomes.size() - accepted(outcomes);
        out.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        out.println("<testsuites name=\"juneau validate\" tests=\"" + outcomes.size() + "\" failures=\"" + failures + "\" errors=\"0\">");
        out.println("  <testsuite name=\"juneau validate\" tests=\"" + outcomes.size() + "\" failures=\"" + failures
                + "\" errors=\"0\" skipped=\"0\">");
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
