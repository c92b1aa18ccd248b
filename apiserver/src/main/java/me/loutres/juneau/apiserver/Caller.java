package me.loutres.juneau.apiserver;

import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import java.util.List;

/**
 * Who sends a request and the options kube-apiserver reads from its query: {@code dryRun=All},
 * {@code fieldManager}, {@code force} (apply), {@code fieldValidation}. Warnings collected on the way become
 * {@code Warning} headers.
 */
record Caller(UserInfo user, boolean dryRun, String fieldManager, boolean force, String fieldValidation,
        List<String> warnings) {

    Caller withDryRun(boolean d) {
        return new Caller(user, d, fieldManager, force, fieldValidation, warnings);
    }

    static Caller internal(UserInfo user) {
        return new Caller(user, false, null, false, "Ignore", new java.util.ArrayList<>());
    }
}
