package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;

/** YAML of the objects the tests review, written the way users and the controller write them. */
final class Manifests {
    private Manifests() {
    }

    static Svc svc(String name) {
        return new Svc(name);
    }

    /** A managed Service by default: type LoadBalancer, our class, Local policy, network "public". */
    static final class Svc {
        private final String name;
        private String namespace = "default";
        private final Map<String, String> annotations = new LinkedHashMap<>();
        private String type = "LoadBalancer";
        private String lbClass = JuneauConstants.LOAD_BALANCER_CLASS;
        private String policy = "Local";
        private final List<String> ports = new ArrayList<>(List.of("{name: http, port: 80, targetPort: 8080, protocol: TCP}"));
        private String families;
        private String familyPolicy;
        private String lbIp;
        private boolean deleting;
        private final List<String> finalizers = new ArrayList<>();

        Svc(String name) {
            this.name = name;
            annotations.put(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, "public");
        }

        Svc ns(String ns) {
            namespace = ns;
            return this;
        }

        Svc net(String network) {
            if (network == null) {
                annotations.remove(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK);
            } else {
                annotations.put(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK, network);
            }
            return this;
        }

        Svc ip(String ip) {
            if (ip == null) {
                annotations.remove(JuneauConstants.ANNOTATION_REQUESTED_IP);
            } else {
                annotations.put(JuneauConstants.ANNOTATION_REQUESTED_IP, ip);
            }
            return this;
        }

        Svc annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        Svc policy(String p) {
            policy = p;
            return this;
        }

        Svc type(String t) {
            type = t;
            return this;
        }

        Svc lbClass(String c) {
            lbClass = c;
            return this;
        }

        Svc port(String protocol) {
            ports.add("{name: p" + ports.size() + ", port: " + (1000 + ports.size()) + ", protocol: " + protocol + "}");
            return this;
        }

        Svc families(String f) {
            families = f;
            return this;
        }

        Svc familyPolicy(String p) {
            familyPolicy = p;
            return this;
        }

        Svc lbIp(String ip) {
            lbIp = ip;
            return this;
        }

        Svc deleting() {
            deleting = true;
            finalizers.add("example.com/keep");
            return this;
        }

        String yaml() {
            StringBuilder sb = new StringBuilder("apiVersion: v1\nkind: Service\nmetadata:\n  name: " + name
                    + "\n  namespace: " + namespace + "\n  uid: 6f1c2b5e-0000-4000-8000-" + String.format("%012d", Math.abs(name.hashCode()))
                    + "\n  resourceVersion: \"4711\"\n  creationTimestamp: \"2026-11-29T10:00:00Z\"\n");
            if (deleting) {
                sb.append("  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n");
            }
            if (!finalizers.isEmpty()) {
                sb.append("  finalizers: [").append(String.join(", ", finalizers)).append("]\n");
            }
            if (!annotations.isEmpty()) {
                sb.append("  annotations:\n");
                annotations.forEach((k, v) -> sb.append("    ").append(k).append(": \"").append(v).append("\"\n"));
            }
            sb.append("spec:\n  type: ").append(type).append('\n');
            if (lbClass != null) {
                sb.append("  loadBalancerClass: ").append(lbClass).append('\n');
            }
            if (policy != null) {
                sb.append("  externalTrafficPolicy: ").append(policy).append('\n');
            }
            if (lbIp != null) {
                sb.append("  loadBalancerIP: ").append(lbIp).append('\n');
            }
            if (families != null) {
                sb.append("  ipFamilies: ").append(families).append('\n');
            }
            if (familyPolicy != null) {
                sb.append("  ipFamilyPolicy: ").append(familyPolicy).append('\n');
            }
            sb.append("  clusterIP: 10.96.12.34\n  selector: {app: ").append(name).append("}\n  sessionAffinity: None\n  ports:\n");
            ports.forEach(p -> sb.append("  - ").append(p).append('\n'));
            return sb.toString();
        }
    }

    static String pool(String name, String mode, String... entries) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: AddressPool\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"100\"\nspec:\n  advertiseMode: " + mode + "\n  addresses: [" + quoted(entries) + "]\n";
    }

    static String deletingPool(String name, String mode, String... entries) {
        return pool(name, mode, entries).replace("  resourceVersion: \"100\"\n",
                "  resourceVersion: \"100\"\n  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n  finalizers: [example.com/keep]\n");
    }

    static String network(String name, String type, String... pools) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: ExternalNetwork\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"200\"\nspec:\n  type: " + type + "\n  addressPools: [" + quoted(pools) + "]\n";
    }

    static String slb(String ns, String name, String network, String vip, String extraMeta) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: ServiceLoadBalancer\nmetadata:\n  name: " + name
                + "\n  namespace: " + ns + "\n  resourceVersion: \"300\"\n  generation: 1\n"
                + "  finalizers: [" + JuneauConstants.FINALIZER + "]\n"
                + "  ownerReferences:\n  - {apiVersion: v1, kind: Service, name: " + name
                + ", uid: 0a0a0a0a-0000-4000-8000-000000000001, controller: true, blockOwnerDeletion: true}\n"
                + extraMeta
                + "spec:\n  serviceRef: {name: " + name + "}\n  externalNetwork: " + network + "\n"
                + (vip == null ? "" : "status:\n  phase: Ready\n  vip: " + vip + "\n  addressPool: pool-a\n");
    }

    static String arp(String name, String network, String address, String node, String extraMeta) {
        return "apiVersion: juneau.loutres.me/v1alpha1\nkind: ARPAdvertisement\nmetadata:\n  name: " + name
                + "\n  resourceVersion: \"400\"\n  labels:\n    " + JuneauConstants.LABEL_SERVICE_NAMESPACE + ": default\n    "
                + JuneauConstants.LABEL_SERVICE_NAME + ": " + name.replaceFirst("^slb-default-", "") + "\n" + extraMeta
                + "spec:\n  externalNetwork: " + network + "\n  address: " + quote(address) + "\n  nodeName: " + node + "\n";
    }

    static String node(String name, String internalIp) {
        return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\nstatus:\n  addresses:\n"
                + "  - {type: InternalIP, address: " + internalIp + "}\n  - {type: InternalIP, address: \"fd00::" + name.length() + "\"}\n"
                + "  - {type: Hostname, address: " + name + "}\n";
    }

    static String serviceCidr(String name, String... cidrs) {
        return "apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata:\n  name: " + name + "\nspec:\n  cidrs: ["
                + quoted(cidrs) + "]\n";
    }

    static String nodeWithPodCidrs(String name, String internalIp, String... podCidrs) {
        return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\nspec:\n  podCIDR: " + quote(podCidrs[0])
                + "\n  podCIDRs: [" + quoted(podCidrs) + "]\nstatus:\n  addresses:\n  - {type: InternalIP, address: "
                + internalIp + "}\n";
    }

    private static String quoted(String... items) {
        List<String> q = new ArrayList<>();
        for (String s : items) {
            q.add(quote(s));
        }
        return String.join(", ", q);
    }

    private static String quote(String s) {
        return s == null ? "null" : "\"" + s.replace("\"", "\\\"") + "\"";
    }
}
