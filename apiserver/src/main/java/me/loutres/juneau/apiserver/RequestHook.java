package me.loutres.juneau.apiserver;

import java.util.Optional;

/**
 * Sees every request before it is served; a refusal answers it with that Status instead (tests use this to record
 * a client's calls and to make chosen writes fail as a busy cluster would, e.g. with 409 Conflict).
 */
@FunctionalInterface
public interface RequestHook {
    /** A Status to answer with instead of serving the request. */
    record Refusal(int code, String reason, String message) {
        /** kube-apiserver's answer to a write at an outdated resourceVersion. */
        public static Refusal conflict(String groupResource, String name) {
            return new Refusal(409, "Conflict", "Operation cannot be fulfilled on " + groupResource + " \"" + name
                    + "\": the object has been modified; please apply your changes to the latest version and try "
                    + "again");
        }
    }

    Optional<Refusal> before(ApiRequest request);
}
