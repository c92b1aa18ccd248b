package me.loutres.juneau.cli.validate;

import java.nio.file.Path;
import me.loutres.juneau.view.ManifestException;

/**
 * Refuses a YAML document over 3 MiB before the YAML parser sees it. kube-apiserver refuses a request body over 3 MiB,
 * so such an object could never be created; the parser refused it too (its limit is the same 3 MiB of code points per
 * document), but only after scanning it, and its reader copies its whole look-ahead window for every 1,024 characters
 * of one long scalar: a single 3.3-million-character line cost seconds of CPU and hundreds of MB before the refusal.
 * Here one pass over the text finds the document markers and counts each document's code points.
 *
 * <p>A file may be much larger than 3 MiB ({@code helm template} of a big chart): the limit is per document, as the
 * cluster applies it per object and the parser per document. A line that starts with {@code ---} or {@code ...} (then
 * a blank or the end of the line) is a document marker wherever it is, even inside a scalar, so the documents found
 * here are the parser's.
 */
final class DocumentSizeLimit {
    /** kube-apiserver's largest request body, and the YAML parser's code-point limit per document. */
    static final int LIMIT = 3 * 1024 * 1024;

    private DocumentSizeLimit() {
    }

    /**
     * Throws when a document of {@code text} holds more than {@code limit} code points, naming the file, the line
     * where the document starts, its number (counted as {@code YamlDocuments} counts them) and the limit.
     */
    static void check(Path file, String text, int limit) throws ManifestException {
        if (text.length() <= limit) {
            return; // a document has no more code points than the text has chars: nothing to count
        }
        int index = 0;        // documents started so far
        int start = 0;        // offset where the current document (or the text before any marker) starts
        int startLine = 1;
        boolean explicit = false; // the current document began with ---, so it counts even when empty
        int line = 1;
        int at = 0;
        int n = text.length();
        while (true) {
            boolean end = at >= n;
            if (end || isMarker(text, at)) {
                int documentIndex = explicit || hasContent(text, start, at) ? index + 1 : index;
                if (documentIndex > index) {
                    index = documentIndex;
                    int codePoints = text.codePointCount(start, at);
                    if (codePoints > limit) {
                        throw new ManifestException(file, startLine, "document " + index + " is "
                                + String.format("%,d", codePoints) + " characters, over the limit of "
                                + String.format("%,d", limit) + " (3 MiB, the largest request body kube-apiserver "
                                + "accepts, so the cluster would refuse it too); split or shrink it");
                    }
                }
                // comments and blank lines alone are no document: the parser skips them in one linear pass, left to it
                if (end) {
                    break;
                }
                explicit = text.charAt(at) == '-'; // "..." ends a document; what follows starts one only with content
                start = at;
                startLine = line;
            }
            at = nextLine(text, at, n); // always past at: the end when no break is left
            line++;
        }
    }

    /** A document marker at the start of the line at {@code at}: {@code ---} or {@code ...}, then a blank or the end. */
    private static boolean isMarker(String text, int at) {
        if (at + 3 > text.length()) {
            return false;
        }
        char c = text.charAt(at);
        if ((c != '-' && c != '.') || text.charAt(at + 1) != c || text.charAt(at + 2) != c) {
            return false;
        }
        if (at + 3 == text.length()) {
            return true;
        }
        char next = text.charAt(at + 3);
        return next == ' ' || next == '\t' || isBreak(next);
    }

    /**
     * YAML's line breaks (1.1, as the parser reads it): LF, CR, CR LF, NEL, LS and PS. Any of them can start a line
     * with a document marker, so all of them split documents here; missing one would join two documents into one.
     */
    private static boolean isBreak(char c) {
        return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    /** Where the line after the one starting at {@code at} starts ({@code to} when it is the last). */
    private static int nextLine(String text, int at, int to) {
        for (int i = at; i < to; i++) {
            char c = text.charAt(i);
            if (c == '\r') {
                return i + 1 < to && text.charAt(i + 1) == '\n' ? i + 2 : i + 1;
            }
            if (isBreak(c)) {
                return i + 1;
            }
        }
        return to;
    }

    /**
     * True when a line between {@code from} and {@code to} holds more than blanks, a comment or a directive: text the
     * parser makes a document of. The {@code ...} marker line that may open the range is not content.
     */
    private static boolean hasContent(String text, int from, int to) {
        int at = from;
        if (at < to && text.startsWith("...", at)) {
            at = nextLine(text, at, to);
        }
        while (at < to) {
            int i = at;
            while (i < to && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\uFEFF')) {
                i++;
            }
            if (i < to && !isBreak(text.charAt(i)) && text.charAt(i) != '#' && !(i == at && text.charAt(i) == '%')) {
                return true;
            }
            at = nextLine(text, at, to);
        }
        return false;
    }
}
