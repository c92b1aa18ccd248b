package me.loutres.juneau.apiserver;

/**
 * One request as a test or benchmark sees it: method, path with query, the client's User-Agent and the
 * authenticated user name.
 */
public record ApiRequest(String method, String path, String userAgent, String username) {
    public boolean isWrite() {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH") || method.equals("DELETE");
    }
}
