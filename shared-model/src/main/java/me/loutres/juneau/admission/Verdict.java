package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.List;

/** What the rules decided about one request: every problem found, warnings, and the mutation's patch. */
final class Verdict {
    private final List<String> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<JsonPatch.Op> patch = new ArrayList<>();

    static Verdict allow() {
        return new Verdict();
    }

    static Verdict deny(String problem) {
        Verdict v = new Verdict();
        v.problem(problem);
        return v;
    }

    void problem(String problem) {
        problems.add(problem);
    }

    void warn(String warning) {
        warnings.add(warning);
    }

    void patch(JsonPatch.Op op) {
        patch.add(op);
    }

    boolean denied() {
        return !problems.isEmpty();
    }

    List<String> problems() {
        return problems;
    }

    List<String> warnings() {
        return warnings;
    }

    List<JsonPatch.Op> patchOps() {
        return patch;
    }

    /** All problems of the object, together, as docs/admission.md asks. */
    String message() {
        return String.join("; ", problems);
    }
}
