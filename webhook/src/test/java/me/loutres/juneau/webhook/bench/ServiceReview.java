package me.loutres.juneau.webhook.bench;

import java.nio.charset.StandardCharsets;

/**
 * A realistic review of a managed Service CREATE as kube-apiserver sends it after defaulting: kubectl's
 * last-applied-configuration annotation, managedFields, two ports, cluster IPs, health check node port, status. The
 * uid is a fixed-width placeholder the load generator overwrites in place for every request.
 */
public final class ServiceReview {
    public static final String UID_PLACEHOLDER = "00000000-0000-4000-8000-000000000000";

    private ServiceReview() {
    }

    public static byte[] json() {
        String lastApplied = "{\\\"apiVersion\\\":\\\"v1\\\",\\\"kind\\\":\\\"Service\\\",\\\"metadata\\\":{\\\"annotations\\\":"
                + "{\\\"juneau.loutres.me/load-balancer-external-network\\\":\\\"public\\\"},\\\"labels\\\":{\\\"app\\\":"
                + "\\\"storefront\\\",\\\"tier\\\":\\\"frontend\\\"},\\\"name\\\":\\\"storefront\\\",\\\"namespace\\\":\\\"shop\\\"},"
                + "\\\"spec\\\":{\\\"externalTrafficPolicy\\\":\\\"Local\\\",\\\"loadBalancerClass\\\":"
                + "\\\"juneau.loutres.me/load-balancer\\\",\\\"ports\\\":[{\\\"name\\\":\\\"http\\\",\\\"port\\\":80,"
                + "\\\"targetPort\\\":8080},{\\\"name\\\":\\\"https\\\",\\\"port\\\":443,\\\"targetPort\\\":8443}],"
                + "\\\"selector\\\":{\\\"app\\\":\\\"storefront\\\"},\\\"type\\\":\\\"LoadBalancer\\\"}}\\n";
        String review = """
                {"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"%s",
                "kind":{"group":"","version":"v1","kind":"Service"},"resource":{"group":"","version":"v1","resource":"services"},
                "requestKind":{"group":"","version":"v1","kind":"Service"},
                "requestResource":{"group":"","version":"v1","resource":"services"},
                "name":"storefront","namespace":"shop","operation":"CREATE",
                "userInfo":{"username":"system:serviceaccount:ci:deployer","uid":"a3c1e6f2-7d4b-4c55-9f0e-2b8f7c1d9e40",
                "groups":["system:serviceaccounts","system:serviceaccounts:ci","system:authenticated"],
                "extra":{"authentication.kubernetes.io/credential-id":["JTI=0f8b6c2e-5e1a-4d7b-9a3c-6e2f1b0d8c47"],
                "authentication.kubernetes.io/node-name":["worker-3"],"authentication.kubernetes.io/pod-name":["deployer-7c9f5d6b8-x2x4q"],
                "authentication.kubernetes.io/pod-uid":["1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f"]}},
                "object":{"kind":"Service","apiVersion":"v1","metadata":{"name":"storefront","namespace":"shop",
                "uid":"5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9","creationTimestamp":"2026-11-29T10:15:30Z",
                "labels":{"app":"storefront","tier":"frontend","app.kubernetes.io/part-of":"shop",
                "app.kubernetes.io/managed-by":"kubectl"},
                "annotations":{"juneau.loutres.me/load-balancer-external-network":"public",
                "kubectl.kubernetes.io/last-applied-configuration":"%s"},
                "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",
                "time":"2026-11-29T10:15:30Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},
                "f:juneau.loutres.me/load-balancer-external-network":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}},
                "f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/managed-by":{},"f:app.kubernetes.io/part-of":{},"f:tier":{}}},
                "f:spec":{"f:allocateLoadBalancerNodePorts":{},"f:externalTrafficPolicy":{},"f:internalTrafficPolicy":{},
                "f:loadBalancerClass":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},
                "f:port":{},"f:protocol":{},"f:targetPort":{}},"k:{\\"port\\":443,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},
                "f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}}]},
                "spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080,"nodePort":31080},
                {"name":"https","protocol":"TCP","port":443,"targetPort":8443,"nodePort":31443}],
                "selector":{"app":"storefront"},"clusterIP":"10.96.143.27","clusterIPs":["10.96.143.27"],
                "type":"LoadBalancer","sessionAffinity":"None","externalTrafficPolicy":"Local","healthCheckNodePort":32456,
                "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","allocateLoadBalancerNodePorts":true,
                "loadBalancerClass":"juneau.loutres.me/load-balancer","internalTrafficPolicy":"Cluster"},
                "status":{"loadBalancer":{}}},
                "oldObject":null,"dryRun":false,
                "options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-client-side-apply",
                "fieldValidation":"Strict"}}}
                """.formatted(UID_PLACEHOLDER, lastApplied).replace("\n", "");
        return review.getBytes(StandardCharsets.UTF_8);
    }
}
