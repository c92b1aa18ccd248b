package me.loutres.juneau.certs;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** One readable line for a failed API call; never the request body (it may hold key material). */
final class ApiErrors {
    private ApiErrors() {
    }

    static CommandFailedException failure(String action, KubernetesClientException e) {
        int code = e.getCode();
        String why;
        if (code <= 0) {
            why = "the API server could not be reached (" + rootCause(e) + "); check --kubeconfig or the in-cluster service account";
        } else if (code == 401) {
            why = "401 Unauthorized: the credentials were refused";
        } else if (code == 403) {
            why = "403 Forbidden: the service account lacks the permission (see the RBAC in manifests/)";
        } else {
            String reason = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : "";
            why = code + (reason.isEmpty() ? "" : ": " + reason.replace('\n', ' '));
        }
        return new CommandFailedException("cannot " + action + ": " + why);
    }

    private static String rootCause(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null ? "" : ": " + m.replace('\n', ' '));
    }
}
