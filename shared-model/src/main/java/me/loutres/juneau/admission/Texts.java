package me.loutres.juneau.admission;

import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.KubeObjects;

/** Message pieces shared by the rules, so every denial reads the same way: field, bad value, what is accepted. */
final class Texts {
    static final String NETWORK_FIELD = "metadata.annotations[\"" + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + "\"]";
    static final String REQUESTED_IP_FIELD = "metadata.annotations[\"" + JuneauConstants.ANNOTATION_REQUESTED_IP + "\"]";
    static final int MAX_LISTED = 10;

    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private Texts() {
    }

    static String quote(String s) {
        return KubeObjects.quote(s);
    }

    /** "a, b, c" / "a, b and 3 more" / "none". */
    static String list(Collection<String> items, int max) {
        if (items.isEmpty()) {
            return "none";
        }
        List<String> all = List.copyOf(items);
        if (all.size() <= max) {
            return String.join(", ", all);
        }
        return String.join(", ", all.subList(0, max)) + " and " + (all.size() - max) + " more";
    }

    static String list(Collection<String> items) {
        return list(items, MAX_LISTED);
    }

    /** DNS-1123 label, as Kubernetes names of Namespaces must be. */
    static boolean isDns1123Label(String s) {
        return s != null && s.length() <= 63 && DNS1123_LABEL.matcher(s).matches();
    }

    /** DNS-1123 subdomain, as Kubernetes names of cluster-scoped objects must be. */
    static boolean isDns1123Subdomain(String s) {
        if (s == null || s.isEmpty() || s.length() > 253) {
            return false;
        }
        for (String label : s.split("\\.", -1)) {
            if (!DNS1123_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    static final String DNS1123_ACCEPTED = "expected a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', "
            + "starting and ending with a letter or digit, at most 253 characters)";

    static String trimmed(String s) {
        return s == null ? null : s.trim();
    }

    static boolean beingDeleted(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o.getMetadata() != null && o.getMetadata().getDeletionTimestamp() != null;
    }

    static String name(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o.getMetadata() == null ? null : o.getMetadata().getName();
    }

    /**
     * The problems of an immutable bgp/arp field such as {@code spec.advertiseMode} or {@code spec.type}: missing or
     * unsupported, or changed on UPDATE ({@code oldValue} non-null only then). Adds nothing when all is well.
     */
    static void modeField(Verdict verdict, String field, String value, String accepted, boolean isUpdate,
            String oldValue, String kind) {
        if (!isMode(value)) {
            verdict.problem(field + ": " + (value == null ? "missing" : quote(value) + " is not supported") + "; "
                    + accepted);
        }
        if (isUpdate && !java.util.Objects.equals(oldValue, value)) {
            verdict.problem(field + ": " + change(oldValue, value) + "; it is immutable (create another " + kind + " instead)");
        }
    }

    /**
     * A change of an immutable value in words: {@code cannot change from "a" to "b"}, or, when the value was or becomes
     * absent, {@code cannot be set to "b" (it was absent)} and {@code cannot be removed (it was "a")}: "from null"
     * read as a program's word, not the manifest's.
     */
    static String change(String oldValue, String value) {
        if (oldValue == null) {
            return "cannot be set to " + quote(value) + " (it was absent)";
        }
        if (value == null) {
            return "cannot be removed (it was " + quote(oldValue) + ")";
        }
        return "cannot change from " + quote(oldValue) + " to " + quote(value);
    }

    static boolean isMode(String value) {
        return me.loutres.juneau.api.JuneauConstants.MODE_BGP.equals(value)
                || me.loutres.juneau.api.JuneauConstants.MODE_ARP.equals(value);
    }
}
