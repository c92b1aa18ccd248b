package me.loutres.juneau.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Paths read as kube-apiserver's RequestInfoFactory reads them, and its words for a refusal. */
class RequestAttributesTest {

    @ParameterizedTest(name = "{0} {1}?{2} -> {4} {5}/{6}/{7} ns={8} name={9}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "GET    | /api/v1/namespaces/d/services                          | -                         | true  | list             | ''                | services         | ''     | d             | ''",
            "GET    | /api/v1/namespaces/d/services                          | watch=true                | true  | watch            | ''                | services         | ''     | d             | ''",
            "GET    | /api/v1/namespaces/d/services                          | watch=1                   | true  | watch            | ''                | services         | ''     | d             | ''",
            "GET    | /api/v1/nodes                                          | fieldSelector=metadata.name=node-a | true | list   | ''                | nodes            | ''     | ''            | node-a",
            "GET    | /api/v1/namespaces/juneau-system/secrets/tor-md5       | -                         | true  | get              | ''                | secrets          | ''     | juneau-system | tor-md5",
            "PUT    | /api/v1/namespaces/d/services/web/status               | -                         | true  | update           | ''                | services         | status | d             | web",
            "PATCH  | /apis/juneau.loutres.me/v1alpha1/bgppeers/tor          | -                         | true  | patch            | juneau.loutres.me | bgppeers         | ''     | ''            | tor",
            "POST   | /apis/juneau.loutres.me/v1alpha1/bgpsessions           | -                         | true  | create           | juneau.loutres.me | bgpsessions      | ''     | ''            | ''",
            "DELETE | /apis/juneau.loutres.me/v1alpha1/bgpsessions/tor.a     | -                         | true  | delete           | juneau.loutres.me | bgpsessions      | ''     | ''            | tor.a",
            "DELETE | /apis/juneau.loutres.me/v1alpha1/bgpsessions           | -                         | true  | deletecollection | juneau.loutres.me | bgpsessions      | ''     | ''            | ''",
            "GET    | /apis/coordination.k8s.io/v1/watch/namespaces/s/leases | -                         | true  | watch            | coordination.k8s.io | leases         | ''     | s             | ''",
            "GET    | /api/v1/namespaces/d                                   | -                         | true  | get              | ''                | namespaces       | ''     | d             | d",
            "PUT    | /api/v1/namespaces/d/finalize                          | -                         | true  | update           | ''                | namespaces       | finalize | d           | d",
            "HEAD   | /api/v1/namespaces                                     | -                         | true  | list             | ''                | namespaces       | ''     | ''            | ''",
            "GET    | /api                                                   | -                         | false | get              | ''                | ''               | ''     | ''            | ''",
            "GET    | /api/v1                                                | -                         | false | get              | ''                | ''               | ''     | ''            | ''",
            "GET    | /apis/juneau.loutres.me/v1alpha1                       | -                         | false | get              | ''                | ''               | ''     | ''            | ''",
            "GET    | /openapi/v3                                            | -                         | false | get              | ''                | ''               | ''     | ''            | ''",
            "POST   | /version                                               | -                         | false | post             | ''                | ''               | ''     | ''            | ''",
    })
    void readsThePathAsKubeApiserverDoes(String method, String path, String query, boolean resource, String verb,
            String group, String plural, String sub, String namespace, String name) {
        Map<String, String> q = query == null ? Map.of()
                : Map.of(query.substring(0, query.indexOf('=')), query.substring(query.indexOf('=') + 1));
        RequestAttributes a = RequestAttributes.of(method, path, q);
        assertThat(a).isEqualTo(new RequestAttributes(resource, verb, group, plural, sub, namespace, name, path));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "PATCH | /apis/juneau.loutres.me/v1alpha1/bgppeers/tor | bgppeers.juneau.loutres.me \"tor\" is forbidden: User \"system:serviceaccount:juneau-system:juneau-agent\" cannot patch resource \"bgppeers\" in API group \"juneau.loutres.me\" at the cluster scope",
            "GET | /api/v1/namespaces/juneau-system/secrets | secrets is forbidden: User \"system:serviceaccount:juneau-system:juneau-agent\" cannot list resource \"secrets\" in API group \"\" in the namespace \"juneau-system\"",
            "PUT | /api/v1/namespaces/d/services/web/status | services \"web\" is forbidden: User \"system:serviceaccount:juneau-system:juneau-agent\" cannot update resource \"services/status\" in API group \"\" in the namespace \"d\"",
            "GET | /metrics | forbidden: User \"system:serviceaccount:juneau-system:juneau-agent\" cannot get path \"/metrics\"",
    })
    void refusesInKubeApiserversWords(String method, String path, String message) {
        assertThat(RequestAttributes.of(method, path, Map.of())
                .forbiddenMessage("system:serviceaccount:juneau-system:juneau-agent")).isEqualTo(message);
    }
}
