package me.loutres.juneau.webhook.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import me.loutres.juneau.webhook.Reviews;

/**
 * What every answer to a damaged request must be (docs/admission.md): a 4xx with one line of text or a 200 AdmissionReview
 * echoing the uid; never a 5xx, never an errored review, never a word of a Java exception.
 */
public final class FuzzOracle {
    /** An answer as seen by the client. */
    public record Answer(int status, String contentType, byte[] body) {
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final Set<Integer> CLIENT_ERRORS = Set.of(400, 404, 405, 413, 415);
    /** The most a message may say about a bad request: kubectl prints all of it. */
    public static final int MAX_MESSAGE_CHARS = 16 * 1024;

    /** Words of a Java exception or stack trace that must never reach a client. */
    private static final List<Pattern> LEAKS = List.of(
            Pattern.compile("Exception"), Pattern.compile("\\bat me\\.loutres"), Pattern.compile("Cannot invoke"),
            Pattern.compile("\\bat (java|jdk|com|io|org)\\.[a-z]"), Pattern.compile("StackOverflow"),
            Pattern.compile("OutOfMemory"), Pattern.compile("\\bnull pointer", Pattern.CASE_INSENSITIVE),
            Pattern.compile("(java|javax|jdk|sun|com\\.fasterxml|io\\.fabric8|org\\.eclipse|me\\.loutres)\\.[a-z0-9_.]*[A-Z]"),
            Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*){2,}\\.[A-Z][A-Za-z0-9_]*(\\$|\\b)"),
            Pattern.compile("\\bclass [a-z]+\\.[a-z]"), Pattern.compile("\\bbecause \"[a-z][A-Za-z0-9_.]*\" is null"),
            Pattern.compile("Source: \\("), Pattern.compile("\\(through reference chain"),
            Pattern.compile("\\b(String|Integer|Long|LinkedHashMap|ArrayList|JsonNode|ObjectNode|TextNode|Map|List)"
                    + "(<[^>]*>)?\\b.*\\b(value|instance|type)\\b"),
            Pattern.compile("`[a-zA-Z.$]+`"));

    private FuzzOracle() {
    }

    /** The first word of a Java exception in a text meant for a person, if any. */
    public static Optional<String> leak(String text) {
        for (Pattern leak : LEAKS) {
            java.util.regex.Matcher m = leak.matcher(text);
            if (m.find()) {
                return Optional.of("exception text in the answer (\"" + m.group() + "\")");
            }
        }
        return Optional.empty();
    }

    /** The first thing wrong with this answer to this case, if any. */
    public static Optional<String> problem(FuzzCase request, Answer answer) {
        String text = answer.text();
        Optional<String> leaked = leak(text);
        if (leaked.isPresent()) {
            return leaked;
        }
        if (answer.status() >= 500) {
            return Optional.of("HTTP " + answer.status());
        }
        if (answer.status() != 200) {
            if (!CLIENT_ERRORS.contains(answer.status())) {
                return Optional.of("unexpected HTTP " + answer.status());
            }
            if (text.strip().contains("\n")) {
                return Optional.of("a " + answer.status() + " reason of more than one line");
            }
            if (text.length() > MAX_MESSAGE_CHARS) {
                return Optional.of("a " + answer.status() + " reason of " + text.length() + " characters");
            }
            return Optional.empty();
        }
        JsonNode review;
        try {
            review = Reviews.JSON.readTree(answer.body());
        } catch (IOException e) {
            return Optional.of("a 200 whose body is not JSON");
        }
        if (review == null || !review.path("response").isObject()) {
            return Optional.of("a 200 without a response");
        }
        JsonNode response = review.get("response");
        if (!response.path("allowed").isBoolean()) {
            return Optional.of("a response without allowed");
        }
        String uid = request.uid();
        if (uid != null && !uid.equals(response.path("uid").asText(null))) {
            return Optional.of("uid not echoed");
        }
        int code = response.path("status").path("code").asInt(0);
        if (code >= 500 || "InternalError".equals(response.path("status").path("reason").asText())) {
            return Optional.of("an errored review (status.code " + code + "): the rules failed");
        }
        String message = response.path("status").path("message").asText("");
        if (message.length() > MAX_MESSAGE_CHARS) {
            return Optional.of("a denial message of " + message.length() + " characters");
        }
        if (!response.path("allowed").asBoolean() && message.isBlank()) {
            return Optional.of("a denial without a message");
        }
        if (message.contains("could not be reviewed")) {
            return Optional.of("a rule failed on the content (\"could not be reviewed\")");
        }
        return Optional.empty();
    }
}
