package me.loutres.juneau.rbac;

import java.util.Locale;
import java.util.Map;

/**
 * What RBAC decides on, read from an HTTP request as kube-apiserver's RequestInfoFactory reads it: a resource request
 * ({@code /api/v1/...}, {@code /apis/<group>/<version>/...}) has a verb (get, list, watch, create, update, patch,
 * delete, deletecollection), API group, resource, subresource, namespace and name; anything else (discovery paths,
 * {@code /version}, {@code /healthz}, {@code /openapi/v3}) is a non-resource request whose verb is the lower-case
 * HTTP method. The API server, the access reviews and the tests' recorded-calls check all read requests here.
 *
 * @param path the URL path (non-resource requests are matched on it)
 */
public record RequestAttributes(boolean resourceRequest, String verb, String apiGroup, String resource,
        String subresource, String namespace, String name, String path) {

    public RequestAttributes {
        apiGroup = nonNull(apiGroup);
        resource = nonNull(resource);
        subresource = nonNull(subresource);
        namespace = nonNull(namespace);
        name = nonNull(name);
        path = nonNull(path);
    }

    /** A resource request as a SelfSubjectAccessReview's {@code spec.resourceAttributes} states it. */
    public static RequestAttributes resource(String verb, String group, String resource, String subresource,
            String namespace, String name) {
        return new RequestAttributes(true, verb, group, resource, subresource, namespace, name, "");
    }

    /** A non-resource request ({@code spec.nonResourceAttributes}). */
    public static RequestAttributes nonResource(String verb, String path) {
        return new RequestAttributes(false, verb, "", "", "", "", "", path);
    }

    /**
     * The attributes of an HTTP request.
     *
     * @param query the query parameters (first value of each); {@code watch} and {@code fieldSelector} matter
     */
    public static RequestAttributes of(String method, String path, Map<String, String> query) {
        String httpVerb = method.toLowerCase(Locale.ROOT);
        String[] all = path.replaceAll("^/+|/+$", "").split("/");
        boolean core = all.length > 0 && all[0].equals("api");
        boolean grouped = all.length > 0 && all[0].equals("apis");
        // /api/v1 and /apis/<group>/<version> are discovery documents: non-resource, as in kube-apiserver
        if (!(core && all.length >= 3) && !(grouped && all.length >= 4)) {
            return nonResource(httpVerb, path);
        }
        String group = core ? "" : all[1];
        int i = core ? 2 : 3;
        String verb = switch (method) {
            case "POST" -> "create";
            case "GET", "HEAD" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> httpVerb;
        };
        if (all[i].equals("watch")) {
            verb = "watch";
            i++;
        }
        String namespace = "";
        if (i < all.length && all[i].equals("namespaces") && i + 1 < all.length) {
            namespace = all[i + 1];
            // namespaces/<ns>/status and /finalize are the Namespace's own subresources
            if (i + 2 < all.length && !all[i + 2].equals("status") && !all[i + 2].equals("finalize")) {
                i += 2;
            }
        }
        String resource = i < all.length ? all[i] : "";
        String name = i + 1 < all.length ? all[i + 1] : "";
        String sub = i + 2 < all.length ? all[i + 2] : "";
        if (name.isEmpty() && verb.equals("get")) {
            String watch = query.get("watch");
            verb = "true".equals(watch) || "1".equals(watch) ? "watch" : "list";
            name = exactName(query.get("fieldSelector"));
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new RequestAttributes(true, verb, group, resource, sub, namespace, name, path);
    }

    /** {@code metadata.name=<n>} in a field selector names one object, as a list of one (kube does the same). */
    private static String exactName(String fieldSelector) {
        if (fieldSelector == null) {
            return "";
        }
        for (String term : fieldSelector.split(",")) {
            String t = term.trim();
            for (String op : new String[] {"==", "="}) {
                if (t.startsWith("metadata.name" + op)) {
                    return t.substring(("metadata.name" + op).length());
                }
            }
        }
        return "";
    }

    /** {@code resource/subresource}, as rules name it. */
    public String resourceAndSubresource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    /**
     * kube-apiserver's words for a refused request: {@code bgppeers.juneau.loutres.me "tor" is forbidden: User
     * "system:serviceaccount:juneau-system:juneau-agent" cannot patch resource "bgppeers" in API group
     * "juneau.loutres.me" at the cluster scope}.
     */
    public String forbiddenMessage(String username) {
        if (!resourceRequest) {
            return "forbidden: User \"" + username + "\" cannot " + verb + " path \"" + path + "\"";
        }
        String where = namespace.isEmpty() ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        String why = "User \"" + username + "\" cannot " + verb + " resource \"" + resourceAndSubresource()
                + "\" in API group \"" + apiGroup + "\" " + where;
        String groupResource = apiGroup.isEmpty() ? resource : resource + "." + apiGroup;
        return groupResource + (name.isEmpty() ? "" : " \"" + name + "\"") + " is forbidden: " + why;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
