package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import me.loutres.juneau.runtime.Term;

/**
 * One object the controller owns, made to match the one a plan wants, as java-operator-sdk's dependent resources do
 * it: not there → create it; there but not wanted → delete it; another value in a field the API server refuses to
 * change → delete it and create the wanted one; another value in a field it lets change → a JSON merge patch of that
 * field, in place (same uid); the same → nothing. {@link #verb} chooses (pure), {@link #remove} and {@link #write}
 * carry it out through {@link KubeWriter}'s verbs, so the term, the bound and RecentWrites are as for every write.
 */
final class Dependent<T extends HasMetadata> {
    enum Verb {
        NONE, CREATE, PATCH, REPLACE, DELETE;

        /** The wanted object is written (created or patched). */
        boolean writes() {
            return this == CREATE || this == PATCH || this == REPLACE;
        }
    }

    /** How objects of a kind compare, the actual one with the wanted one. */
    interface Match<T> {
        /** The fields the API server refuses to change are the same (else the object is replaced). */
        boolean sameImmutable(T actual, T desired);

        /** Every field the controller sets is the same (else it is patched). */
        boolean same(T actual, T desired);

        /**
         * The JSON merge patch that takes {@code actual} to {@code desired}: scalar fields only, with {@code actual}'s
         * resourceVersion, so a patch based on a stale read gets a 409.
         */
        String patch(T actual, T desired);
    }

    private final KubeWriter writer;
    private final WrittenKind<T> kind;
    private final Match<T> match;

    Dependent(KubeWriter writer, WrittenKind<T> kind, Match<T> match) {
        this.writer = writer;
        this.kind = kind;
        this.match = match;
    }

    /** What makes {@code actual} (null: none) into {@code desired} (null: none wanted). */
    Verb verb(T actual, T desired) {
        if (desired == null) {
            return actual == null ? Verb.NONE : Verb.DELETE;
        }
        if (actual == null) {
            return Verb.CREATE;
        }
        if (!match.sameImmutable(actual, desired)) {
            return Verb.REPLACE;
        }
        return match.same(actual, desired) ? Verb.NONE : Verb.PATCH;
    }

    /** The first half of {@code verb}: deletes {@code actual} when it goes (DELETE) or is replaced (REPLACE). */
    void remove(Term term, Verb verb, T actual) {
        if (verb == Verb.DELETE || verb == Verb.REPLACE) {
            writer.delete(term, kind, actual);
        }
    }

    /** The second half: creates or patches {@code desired}; the object written, or {@code actual} when none was. */
    T write(Term term, Verb verb, T actual, T desired) {
        return switch (verb) {
            case CREATE, REPLACE -> writer.create(term, kind, desired);
            case PATCH -> writer.mergePatch(term, kind, actual, match.patch(actual, desired));
            case DELETE -> null;
            case NONE -> actual;
        };
    }
}
