package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.arp;
import static me.loutres.juneau.admission.Manifests.network;
import static me.loutres.juneau.admission.Manifests.pool;
import static me.loutres.juneau.admission.Manifests.slb;
import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.view.ClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numbered rule of docs/admission.md with at least one denial and one admission, reviewed through the public
 * engine on the webhook paths with requests decoded from kube-apiserver-shaped AdmissionReview JSON.
 */
class AdmissionRulesTest {
    static final String NET = "metadata.annotations[\"juneau.loutres.me/load-balancer-external-network\"]: ";
    static final String IP = "metadata.annotations[\"juneau.loutres.me/load-balancer-requested-ip\"]: ";
    static final String SVC = "/validate/services";
    static final String MUT = "/mutate/services";
    static final String POOLS = "/validate/addresspools";
    static final String NETS = "/validate/externalnetworks";
    static final String SLBS = "/validate/serviceloadbalancers";
    static final String ARPS = "/validate/arpadvertisements";
    static final String CTL = Requests.CONTROLLER;
    static final String GC = JuneauConstants.GARBAGE_COLLECTOR_USERNAME;
    static final String NSC = JuneauConstants.NAMESPACE_CONTROLLER_USERNAME;
    static final String KCM = JuneauConstants.KUBE_CONTROLLER_MANAGER_USERNAME;

    static final AdmissionEngine ENGINE = new AdmissionEngine(new AdmissionSettings(
            Set.of(CTL), List.of("10.96.0.0/12", "172.31.255.1")));

    record Case(String rule, String path, Supplier<Requests> request, Supplier<ClusterView> view, Boolean allowed,
                String message, String warning) {
        @Override
        public String toString() {
            return rule;
        }
    }

    static final List<Case> CASES = new ArrayList<>();

    static void allow(String rule, String path, Supplier<Requests> r) {
        CASES.add(new Case(rule, path, r, Fixtures::cluster, true, null, null));
    }

    static void allowWarn(String rule, String path, Supplier<Requests> r, String warning) {
        CASES.add(new Case(rule, path, r, Fixtures::cluster, true, null, warning));
    }

    static void deny(String rule, String path, Supplier<Requests> r, String message) {
        CASES.add(new Case(rule, path, r, Fixtures::cluster, false, message, null));
    }

    static void denyIn(String rule, String path, Supplier<ClusterView> view, Supplier<Requests> r, String message) {
        CASES.add(new Case(rule, path, r, view, false, message, null));
    }

    static void allowIn(String rule, String path, Supplier<ClusterView> view, Supplier<Requests> r) {
        CASES.add(new Case(rule, path, r, view, true, null, null));
    }

    static Requests create(String yaml) {
        return Requests.service("CREATE").object(yaml);
    }

    static Requests update(String oldYaml, String yaml) {
        return Requests.service("UPDATE").oldObject(oldYaml).object(yaml);
    }

    static {
        // rule 1: externalTrafficPolicy Local (after mutation)
        deny("2.1.1 deny Cluster", SVC, () -> create(svc("a").policy("Cluster").yaml()),
                "spec.externalTrafficPolicy: \"Cluster\" is not supported; accepted: Local (Juneau announces a VIP only from nodes with a local ready backend)");
        deny("2.1.1 deny unset", SVC, () -> create(svc("a").policy(null).yaml()),
                "spec.externalTrafficPolicy: not set; accepted: Local (Juneau announces a VIP only from nodes with a local ready backend)");
        allow("2.1.1 allow Local", SVC, () -> create(svc("a").yaml()));
        // rule 2: the network annotation
        deny("2.1.2 deny missing annotation", SVC, () -> create(svc("a").net(null).yaml()),
                NET + "missing; set it to the name of an ExternalNetwork (existing: broken, l2, public), or mark one ExternalNetwork juneau.loutres.me/default-network: \"true\" to serve Services without it");
        deny("2.1.2 deny blank annotation", SVC, () -> create(svc("a").net("   ").yaml()),
                NET + "empty; set it to the name of an ExternalNetwork (existing: broken, l2, public), or mark one ExternalNetwork juneau.loutres.me/default-network: \"true\" to serve Services without it");
        deny("2.1.2 deny not DNS-1123", SVC, () -> create(svc("a").net("Pub_1").yaml()),
                NET + "\"Pub_1\" is not a valid ExternalNetwork name; expected a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)");
        allow("2.1.2 allow subdomain with dots", SVC, () -> create(svc("a").net("l2").yaml()));
        // rule 3
        deny("2.1.3 deny unknown network", SVC, () -> create(svc("a").net("pub").yaml()),
                NET + "ExternalNetwork \"pub\" does not exist; existing: broken, l2, public");
        allow("2.1.3 allow whitespace around an existing name", SVC, () -> create(svc("a").net(" public ").yaml()));
        // rule 4
        deny("2.1.4 deny network without a pool of its type", SVC, () -> create(svc("a").net("broken").yaml()),
                NET + "ExternalNetwork \"broken\" (type bgp) has no AddressPool with advertiseMode bgp; its pools: pool-missing (missing), pool-l2b (advertiseMode arp); create a bgp AddressPool and list it in the ExternalNetwork's spec.addressPools");
        allow("2.1.4 allow network with matching pools", SVC, () -> create(svc("a").net("public").yaml()));
        // rule 5
        deny("2.1.5 deny not an IPv4 literal", SVC, () -> create(svc("a").ip("192.0.2.300").yaml()),
                IP + "\"192.0.2.300\" is not an IPv4 address: octet 300 is above 255; expected a dotted quad such as 192.0.2.10");
        deny("2.1.5 deny outside every pool", SVC, () -> create(svc("a").ip("10.9.9.9").yaml()),
                IP + "10.9.9.9 is outside every AddressPool of ExternalNetwork \"public\"; accepted: an address in 192.0.2.1-192.0.2.254 (AddressPool pool-a), 198.51.100.1-198.51.100.14 (AddressPool pool-b), 198.51.100.64-198.51.100.65 (AddressPool pool-b)");
        deny("2.1.5 deny network address of a /24", SVC, () -> create(svc("a").ip("192.0.2.0").yaml()),
                IP + "192.0.2.0 is the network address of 192.0.2.0/24 in AddressPool pool-a, which is never handed out; accepted: an address in 192.0.2.1-192.0.2.254 (AddressPool pool-a), 198.51.100.1-198.51.100.14 (AddressPool pool-b), 198.51.100.64-198.51.100.65 (AddressPool pool-b)");
        deny("2.1.5 deny broadcast address of a /28", SVC, () -> create(svc("a").ip("198.51.100.15").yaml()),
                IP + "198.51.100.15 is the broadcast address of 198.51.100.0/28 in AddressPool pool-b, which is never handed out; accepted: an address in 192.0.2.1-192.0.2.254 (AddressPool pool-a), 198.51.100.1-198.51.100.14 (AddressPool pool-b), 198.51.100.64-198.51.100.65 (AddressPool pool-b)");
        deny("2.1.5 deny an address of another network's pool", SVC, () -> create(svc("a").net("l2").ip("192.0.2.10").yaml()),
                IP + "192.0.2.10 is outside every AddressPool of ExternalNetwork \"l2\"; accepted: an address in 203.0.113.10-203.0.113.20 (AddressPool pool-l2)");
        deny("2.1.5 deny a loopback requested IP, saying why", SVC, () -> create(svc("a").ip("127.0.0.10").yaml()),
                IP + "127.0.0.10 is in 127.0.0.0/8 (loopback: as a VIP, kube-proxy would capture every node's own traffic "
                        + "to that address and port), which can never be a VIP; request a unicast address of the "
                        + "ExternalNetwork's pools, or remove the annotation to get one allocated");
        deny("2.1.5 deny the broadcast address as requested IP", SVC, () -> create(svc("a").ip("255.255.255.255").yaml()),
                IP + "255.255.255.255 is in 240.0.0.0/4 (reserved for future use, with the broadcast address "
                        + "255.255.255.255), which can never be a VIP; request a unicast address of the "
                        + "ExternalNetwork's pools, or remove the annotation to get one allocated");
        allow("2.1.5 allow inside a pool", SVC, () -> create(svc("a").ip("192.0.2.10").yaml()));
        allow("2.1.5 allow both addresses of a /31", SVC, () -> create(svc("a").ip("198.51.100.64").yaml()));
        allow("2.1.5 allow whitespace around the address", SVC, () -> create(svc("a").ip(" 198.51.100.65 ").yaml()));
        allow("2.1.5 allow an empty requested IP: none", SVC, () -> create(svc("a").ip("").yaml()));
        allow("2.1.5 allow a whitespace-only requested IP: none", SVC, () -> create(svc("a").ip("  \t").yaml()));
        deny("2.1.5 deny a Node's InternalIP in an arp network", SVC, () -> create(svc("a").net("l2").ip("203.0.113.20").yaml()),
                IP + "203.0.113.20 is the InternalIP of Node node-c; announcing it by ARP would take the address away from the node; request another address, or remove the annotation to get one allocated");
        allowIn("2.1.5 allow a Node's InternalIP in a bgp network (no ARP)", SVC,
                () -> Fixtures.view(pool("pool-a", "bgp", "192.0.2.0/24"), network("public", "bgp", "pool-a"),
                        Manifests.node("odd", "192.0.2.77")),
                () -> create(svc("a").ip("192.0.2.77").yaml()));
        // rule 6
        deny("2.1.6 deny the VIP of another ServiceLoadBalancer", SVC, () -> create(svc("a").ip("192.0.2.2").yaml()),
                IP + "192.0.2.2 is already the VIP of ServiceLoadBalancer team-b/api; request a free address, or remove the annotation to get one allocated");
        allow("2.1.6 allow the Service's own VIP", SVC, () -> update(svc("web").yaml(), svc("web").ip("192.0.2.1").yaml()));
        allow("2.1.6 allow the VIP of a ServiceLoadBalancer being deleted", SVC, () -> create(svc("a").ip("192.0.2.3").yaml()));
        // rule 7
        deny("2.1.7 deny SCTP", SVC, () -> create(svc("a").port("SCTP").yaml()),
                "spec.ports[1].protocol: \"SCTP\" is not supported; accepted: TCP, UDP");
        deny("2.1.7 deny IPv6 only", SVC, () -> create(svc("a").families("[IPv6]").yaml()),
                "spec.ipFamilies: the Service asks for [IPv6] (SingleStack), but no AddressPool of ExternalNetwork \"public\" "
                        + "holds IPv6 addresses; its pools: pool-a (IPv4), pool-b (IPv4); accepted: a family its pools hold "
                        + "(IPv4), or add IPv6 entries to one of its pools");
        allow("2.1.7 allow UDP and preferred dual stack", SVC, () -> create(svc("a").port("UDP").families("[IPv6, IPv4]")
                .familyPolicy("PreferDualStack").yaml()));
        // rule 8
        deny("2.1.8 deny changing the network once the VIP is allocated", SVC,
                () -> update(svc("web").yaml(), svc("web").net("l2").yaml()),
                NET + "cannot change from \"public\" to \"l2\"; the VIP of a Service is fixed once allocated (192.0.2.1); delete and re-create the Service to use another ExternalNetwork");
        deny("2.1.8 deny requesting another address once the VIP is allocated", SVC,
                () -> update(svc("web").yaml(), svc("web").ip("192.0.2.10").yaml()),
                IP + "cannot be set to \"192.0.2.10\" (it was absent); accepted: \"192.0.2.1\" or no annotation; the VIP of a Service is fixed once allocated (192.0.2.1); delete and re-create the Service to get another address");
        allow("2.1.8 allow pinning the allocated VIP", SVC, () -> update(svc("web").yaml(), svc("web").ip("192.0.2.1").yaml()));
        allow("2.1.8 allow removing the requested IP (the VIP stays)", SVC,
                () -> update(svc("web").ip("192.0.2.1").yaml(), svc("web").yaml()));
        allow("2.1.8 allow an empty requested IP once the VIP is allocated (it means none)", SVC,
                () -> update(svc("web").yaml(), svc("web").ip(" ").yaml()));
        allow("2.1.8 allow changing the network before allocation", SVC,
                () -> update(svc("fresh").yaml(), svc("fresh").net("l2").yaml()));
        // UPDATE that changes none of the admission fields
        allow("2.1 unchanged UPDATE is not re-checked", SVC,
                () -> update(svc("old").net("gone").yaml(), svc("old").net("gone").annotation("team", "blue").yaml()));
        deny("2.1 UPDATE changing ports is re-checked", SVC,
                () -> update(svc("old").net("gone").yaml(), svc("old").net("gone").port("UDP").yaml()),
                NET + "ExternalNetwork \"gone\" does not exist; existing: broken, l2, public");
        deny("2.1 UPDATE making a Service managed is checked", SVC,
                () -> update(svc("old").type("ClusterIP").net("gone").yaml(), svc("old").net("gone").yaml()),
                NET + "ExternalNetwork \"gone\" does not exist; existing: broken, l2, public");
        // deletionTimestamp skips cross-object checks
        allow("2.1 being deleted skips cross-object checks", SVC,
                () -> update(svc("bye").net("gone").deleting().yaml(), svc("bye").net("gone").port("UDP").deleting().yaml()));
        // not managed: never checked
        String ignored = "Juneau ignores this Service although it has annotation juneau.loutres.me/load-balancer-external-network: ";
        String serves = "; Juneau serves only Services with spec.type: LoadBalancer and spec.loadBalancerClass: juneau.loutres.me/load-balancer"
                + " (the class can be set only when the Service is created or becomes a LoadBalancer)";
        allowWarn("2.1 unmanaged type with a Juneau annotation: allowed with a warning", SVC,
                () -> create(svc("a").type("ClusterIP").policy("Cluster").net("Bad_Name").yaml()),
                ignored + "spec.type is \"ClusterIP\"" + serves);
        allowWarn("2.1 no class but Juneau annotations: allowed with a warning naming them all", SVC,
                () -> create(svc("a").lbClass(null).policy("Cluster").ip("192.0.2.9").yaml()),
                ignored.replace("annotation juneau.loutres.me/load-balancer-external-network",
                        "annotations juneau.loutres.me/load-balancer-external-network, juneau.loutres.me/load-balancer-requested-ip")
                        + "spec.loadBalancerClass is not set (the webhook runs without --manage-unclassed)" + serves);
        allowWarn("2.1 a misspelled class with a Juneau annotation: allowed with a warning", SVC,
                () -> create(svc("a").lbClass("juneau.loutres.me/loadbalancer").yaml()),
                ignored + "spec.loadBalancerClass is \"juneau.loutres.me/loadbalancer\"" + serves);
        allowWarn("2.1 the warning on UPDATE too", SVC,
                () -> update(svc("a").lbClass(null).yaml(), svc("a").lbClass(null).annotation("team", "x").yaml()),
                ignored + "spec.loadBalancerClass is not set (the webhook runs without --manage-unclassed)" + serves);
        allow("2.1 unmanaged without Juneau annotations: no warning", SVC,
                () -> create(svc("a").type("ClusterIP").net(null).annotation("example.com/juneau.loutres.me", "x").yaml()));
        allow("2.6 unmanaged with Juneau annotations: the mutation neither patches nor warns", MUT,
                () -> create(svc("a").lbClass(null).policy("Cluster").net(" public ").yaml()));
        allow("2.1 other load balancer class", SVC, () -> create(svc("a").lbClass("example.com/lb").policy("Cluster").net(null).yaml()));
        // warning for loadBalancerIP
        allowWarn("2.1 loadBalancerIP warns", SVC, () -> create(svc("a").lbIp("192.0.2.9").yaml()),
                "spec.loadBalancerIP \"192.0.2.9\" is not used by Juneau; set annotation juneau.loutres.me/load-balancer-requested-ip to request an address");
        // annotations that look meant for Juneau but are not read: warned, never denied (issue 41, item 6)
        allowWarn("2.1 a typo'd juneau.loutres.me/ annotation warns with the nearest real key", SVC,
                () -> create(svc("a").annotation("juneau.loutres.me/load-balancer-requested-ip-address", "192.0.2.9")
                        .yaml()),
                "annotation juneau.loutres.me/load-balancer-requested-ip-address is not one Juneau reads, so it has no"
                        + " effect; did you mean juneau.loutres.me/load-balancer-requested-ip? Juneau reads"
                        + " juneau.loutres.me/load-balancer-external-network and"
                        + " juneau.loutres.me/load-balancer-requested-ip on a Service");
        allowWarn("2.1 MetalLB's loadBalancerIPs warns with Juneau's equivalent", SVC,
                () -> create(svc("a").annotation("metallb.universe.tf/loadBalancerIPs", "192.0.2.9").yaml()),
                "annotation metallb.universe.tf/loadBalancerIPs is MetalLB's and Juneau does not read it; Juneau's is"
                        + " juneau.loutres.me/load-balancer-requested-ip (one address, or an IPv4 and an IPv6 address"
                        + " separated by a comma)");
        allow("2.1 other annotations: no warning", SVC,
                () -> create(svc("a").annotation("example.com/metallb.universe.tf", "x").annotation("team", "x").yaml()));
        // all problems together
        deny("2.1 all problems reported together", SVC, () -> create(svc("a").policy("Cluster").port("SCTP").net("pub").ip("x").yaml()),
                "spec.externalTrafficPolicy: \"Cluster\" is not supported; accepted: Local (Juneau announces a VIP only from nodes with a local ready backend); "
                        + "spec.ports[1].protocol: \"SCTP\" is not supported; accepted: TCP, UDP; "
                        + IP + "\"x\" is not an IP address; expected an IPv4 dotted quad such as 192.0.2.10 or an IPv6 address such as 2001:db8::10; "
                        + NET + "ExternalNetwork \"pub\" does not exist; existing: broken, l2, public");

        // only the controller writes ServiceLoadBalancers and ARPAdvertisements
        String web = slb("default", "web", "public", "192.0.2.1", "");
        String webDenied = "ServiceLoadBalancer default/web is managed by Juneau; edit Service default/web instead (request by \"alice\")";
        deny("2.2 deny CREATE by a user", SLBS, () -> Requests.slb("CREATE").object(web), webDenied);
        deny("2.2 deny CREATE by a user, dry run too", SLBS, () -> Requests.slb("CREATE").object(web).dryRun(), webDenied);
        allow("2.2 allow CREATE by the controller", SLBS, () -> Requests.slb("CREATE").object(web).user(CTL));
        deny("2.2 deny UPDATE by a user", SLBS, () -> Requests.slb("UPDATE").oldObject(web)
                .object(web.replace("externalNetwork: public", "externalNetwork: l2")), webDenied);
        deny("2.2 deny status UPDATE by a user", SLBS, () -> Requests.slb("UPDATE").subResource("status").oldObject(web)
                .object(web.replace("vip: 192.0.2.1", "vip: 192.0.2.9")), webDenied);
        allow("2.2 allow status UPDATE by the controller", SLBS, () -> Requests.slb("UPDATE").subResource("status")
                .oldObject(web).object(web.replace("phase: Ready", "phase: Degraded")).user(CTL));
        deny("2.2 deny DELETE by a user, saying how to get there", SLBS, () -> Requests.slb("DELETE").oldObject(web),
                "ServiceLoadBalancer default/web is managed by Juneau; to remove it, delete Service default/web or change"
                        + " its type from LoadBalancer, and the controller deletes it (request by \"alice\")");
        allow("2.2 allow DELETE by the garbage collector", SLBS, () -> Requests.slb("DELETE").oldObject(web).user(GC));
        allow("2.2 allow DELETE by the namespace controller", SLBS, () -> Requests.slb("DELETE").oldObject(web).user(NSC));
        allow("2.2 allow DELETE by the controller", SLBS, () -> Requests.slb("DELETE").oldObject(web).user(CTL));
        allow("2.2 allow DELETE by the controller manager (GC without its own credentials)", SLBS,
                () -> Requests.slb("DELETE").oldObject(web).user(KCM));
        allow("2.2 allow ARPAdvertisement DELETE by the controller manager", ARPS,
                () -> Requests.arp("DELETE").oldObject(arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", "")).user(KCM));
        String webOrphaned = web.replaceFirst("  ownerReferences:\n  - \\{[^\n]*\n", "");
        allow("2.2 allow the garbage collector to remove ownerReferences (orphaning)", SLBS,
                () -> Requests.slb("UPDATE").oldObject(web).object(webOrphaned.replace("resourceVersion: \"300\"", "resourceVersion: \"301\"")).user(GC));
        allow("2.2 allow the controller manager to orphan", SLBS,
                () -> Requests.slb("UPDATE").oldObject(web).object(webOrphaned).user(KCM));
        deny("2.2 deny orphaning by a user", SLBS, () -> Requests.slb("UPDATE").oldObject(web).object(webOrphaned), webDenied);
        deny("2.2 deny orphaning by the namespace controller", SLBS,
                () -> Requests.slb("UPDATE").oldObject(web).object(webOrphaned).user(NSC),
                webDenied.replace("\"alice\"", "\"" + NSC + "\""));
        deny("2.2 deny the garbage collector orphaning and changing the spec", SLBS, () -> Requests.slb("UPDATE").oldObject(web)
                .object(webOrphaned.replace("externalNetwork: public", "externalNetwork: l2")).user(GC),
                webDenied.replace("\"alice\"", "\"" + GC + "\""));
        deny("2.2 deny the garbage collector writing status", SLBS, () -> Requests.slb("UPDATE").subResource("status").oldObject(web)
                .object(webOrphaned).user(GC), webDenied.replace("\"alice\"", "\"" + GC + "\""));
        deny("2.2 deny UPDATE by the garbage collector", SLBS, () -> Requests.slb("UPDATE").oldObject(web)
                .object(web.replace("generation: 1", "generation: 1\n  labels: {juneau.loutres.me/node: node-b}")).user(GC),
                webDenied.replace("\"alice\"", "\"" + GC + "\""));
        // users may label and annotate the derived objects, as long as they leave Juneau's own keys alone
        allow("2.2 allow a user's labels and annotations on a ServiceLoadBalancer", SLBS, () -> Requests.slb("UPDATE")
                .oldObject(web).object(web.replace("generation: 1", "generation: 1\n  labels: {team: shop}\n"
                        + "  annotations: {backup.example.com/skip: \"true\"}").replace("resourceVersion: \"300\"",
                        "resourceVersion: \"301\"")));
        deny("2.2 deny a user's label in Juneau's own group", SLBS, () -> Requests.slb("UPDATE").oldObject(web)
                .object(web.replace("generation: 1", "generation: 1\n  labels: {juneau.loutres.me/service-name: other}")),
                webDenied);
        deny("2.2 deny a user's annotation under a juneau.loutres.me subdomain", SLBS, () -> Requests.slb("UPDATE")
                .oldObject(web).object(web.replace("generation: 1",
                        "generation: 1\n  annotations: {serviceloadbalancer.juneau.loutres.me/x: y}")), webDenied);
        deny("2.2 deny a user's label together with a spec change", SLBS, () -> Requests.slb("UPDATE").oldObject(web)
                .object(web.replace("generation: 1", "generation: 1\n  labels: {team: shop}")
                        .replace("externalNetwork: public", "externalNetwork: l2")), webDenied);
        deny("2.2 deny a user's label change on the status subresource", SLBS, () -> Requests.slb("UPDATE")
                .subResource("status").oldObject(web).object(web.replace("generation: 1", "generation: 1\n  labels: {team: shop}")),
                webDenied);
        String webGone = web.replace("  resourceVersion: \"300\"\n", "  resourceVersion: \"300\"\n  deletionTimestamp: \"2026-11-29T11:00:00Z\"\n");
        allow("2.2 allow finalizer-only removal by anyone", SLBS, () -> Requests.slb("UPDATE").oldObject(webGone)
                .object(webGone.replace("  finalizers: [" + JuneauConstants.FINALIZER + "]\n", "")
                        .replace("resourceVersion: \"300\"", "resourceVersion: \"301\"")));
        deny("2.2 deny finalizer removal together with another change", SLBS, () -> Requests.slb("UPDATE").oldObject(webGone)
                .object(webGone.replace("  finalizers: [" + JuneauConstants.FINALIZER + "]\n", "").replace("externalNetwork: public", "externalNetwork: l2")),
                webDenied);
        String l2arp = arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", "");
        deny("2.2 deny ARPAdvertisement UPDATE by a user", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arp)
                .object(l2arp.replace("nodeName: node-a", "nodeName: node-b")),
                "ARPAdvertisement slb-default-l2web is managed by Juneau; edit Service default/l2web instead (request by \"alice\")");
        deny("2.2 deny ARPAdvertisement DELETE by a user", ARPS, () -> Requests.arp("DELETE").oldObject(l2arp),
                "ARPAdvertisement slb-default-l2web is managed by Juneau; to remove it, delete Service default/l2web or"
                        + " change its type from LoadBalancer, and the controller deletes it (request by \"alice\")");
        allow("2.2 allow a user's annotation on an ARPAdvertisement", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arp)
                .object(l2arp.replace("  labels:\n", "  annotations: {note: rack-3}\n  labels:\n")));
        deny("2.2 deny a user's change of the node label of an ARPAdvertisement", ARPS, () -> Requests.arp("UPDATE")
                .oldObject(l2arp).object(l2arp.replace("  labels:\n", "  labels:\n    " + JuneauConstants.LABEL_NODE + ": node-b\n")),
                "ARPAdvertisement slb-default-l2web is managed by Juneau; edit Service default/l2web instead (request by \"alice\")");
        String uidLabelled = l2arp.replace("  labels:\n", "  labels:\n    " + JuneauConstants.LABEL_SERVICE_UID
                + ": 0a0a0a0a-0000-4000-8000-000000000001\n");
        allow("2.2 allow the controller to add the Service uid label to an ARPAdvertisement", ARPS,
                () -> Requests.arp("UPDATE").oldObject(l2arp).object(uidLabelled).user(CTL));
        deny("2.2 deny a user's change of the Service uid label of an ARPAdvertisement", ARPS, () -> Requests.arp("UPDATE")
                .oldObject(uidLabelled).object(uidLabelled.replace("000000000001", "000000000002")),
                "ARPAdvertisement slb-default-l2web is managed by Juneau; edit Service default/l2web instead (request by \"alice\")");
        allow("2.2 allow ARPAdvertisement DELETE by the garbage collector", ARPS, () -> Requests.arp("DELETE").oldObject(l2arp).user(GC));
        allow("2.2 allow ARPAdvertisement nodeName UPDATE by the controller", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arp)
                .object(l2arp.replace("nodeName: node-a", "nodeName: node-b")).user(CTL));

        // ARPAdvertisement content, for the controller's writes too
        String fresh = arp("slb-default-new", "l2", "203.0.113.11", "node-b", "");
        allow("2.3 allow a valid ARPAdvertisement", ARPS, () -> Requests.arp("CREATE").object(fresh).user(CTL));
        deny("2.3 deny changing the network", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arp)
                .object(l2arp.replace("externalNetwork: l2", "externalNetwork: public")).user(CTL),
                "spec.externalNetwork: cannot change from \"l2\" to \"public\"; it is immutable (only spec.nodeName may change); "
                        + "spec.externalNetwork: ExternalNetwork \"public\" has type bgp; accepted: an ExternalNetwork of type arp (existing: l2)");
        deny("2.3 deny changing the address", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arp)
                .object(l2arp.replace("\"203.0.113.10\"", "\"203.0.113.12\"")).user(CTL),
                "spec.address: cannot change from \"203.0.113.10\" to \"203.0.113.12\"; it is immutable (only spec.nodeName may change)");
        deny("2.3 deny an address that is not IPv4", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("203.0.113.11", "203.0.113")).user(CTL),
                "spec.address: \"203.0.113\" is not an IPv4 address; expected a dotted quad such as 192.0.2.10");
        deny("2.3 deny a missing network", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("externalNetwork: l2", "externalNetwork: nope")).user(CTL),
                "spec.externalNetwork: ExternalNetwork \"nope\" does not exist; accepted: an ExternalNetwork of type arp (existing: l2)");
        deny("2.3 deny an address outside the network's pools", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("203.0.113.11", "203.0.113.50")).user(CTL),
                "spec.address: 203.0.113.50 is outside the AddressPools of ExternalNetwork \"l2\"; accepted: an address in 203.0.113.10-203.0.113.20 (AddressPool pool-l2)");
        deny("2.3 deny an unknown node", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("node-b", "node-z")).user(CTL),
                "spec.nodeName: Node \"node-z\" does not exist; accepted: an existing Node (node-a, node-b, node-c)");
        deny("2.3 deny a node's InternalIP", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("203.0.113.11", "203.0.113.20")).user(CTL),
                "spec.address: 203.0.113.20 is the InternalIP of Node node-c; announcing it would take the address away from the node");
        deny("2.3 deny an address another ARPAdvertisement has", ARPS, () -> Requests.arp("CREATE").object(fresh.replace("203.0.113.11", "203.0.113.10")).user(CTL),
                "spec.address: 203.0.113.10 is already announced by ARPAdvertisement slb-default-l2web; at most one ARPAdvertisement per address");
        allowIn("2.3 allow the address of an ARPAdvertisement being deleted", ARPS,
                () -> Fixtures.view(pool("pool-l2", "arp", "203.0.113.10-203.0.113.20"), network("l2", "arp", "pool-l2"),
                        Manifests.node("node-b", "10.0.0.12"),
                        arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", Fixtures.SLB_DELETING_META)),
                () -> Requests.arp("CREATE").object(fresh.replace("203.0.113.11", "203.0.113.10")).user(CTL));
        String l2arpGone = arp("slb-default-l2web", "l2", "203.0.113.10", "node-a", Fixtures.SLB_DELETING_META);
        allow("2.3 deletionTimestamp skips cross-object checks", ARPS, () -> Requests.arp("UPDATE").oldObject(l2arpGone)
                .object(l2arpGone.replace("nodeName: node-a", "nodeName: node-gone")).user(CTL));

        // AddressPool
        allow("2.4 allow a new bgp pool", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "172.16.0.0/24", "172.16.1.7/32")));
        allow("2.4 allow a new arp pool with spaces", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", " 172.16.0.10 - 172.16.0.20 ", "172.16.0.30-172.16.0.30")));
        deny("2.4 deny an unknown mode", POOLS, () -> Requests.pool("CREATE").object(pool("p", "BGP", "172.16.0.0/24")),
                "spec.advertiseMode: \"BGP\" is not supported; accepted: bgp (entries are CIDRs) or arp (entries are start-end ranges)");
        deny("2.4 deny bad entries, all of them", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "172.16.0.0/33", "172.16.1.0-172.16.1.9", "172.16.2.0/24")),
                "spec.addresses[0]: \"172.16.0.0/33\" has prefix length /33, outside /8 to /32; expected an IPv4 CIDR a.b.c.d/N with N from 8 to 32, e.g. 192.0.2.0/24; "
                        + "spec.addresses[1]: \"172.16.1.0-172.16.1.9\" is a start-end range, but advertiseMode bgp takes CIDRs; expected an IPv4 CIDR a.b.c.d/N with N from 8 to 32, e.g. 192.0.2.0/24");
        deny("2.4 deny a CIDR in an arp pool", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "172.16.0.0/24")),
                "spec.addresses[0]: \"172.16.0.0/24\" is a CIDR, but advertiseMode arp takes start-end ranges; expected an IPv4 range start-end with start <= end, e.g. 192.0.2.10-192.0.2.20");
        deny("2.4 deny no entries", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp")),
                "spec.addresses: at least one entry is required; expected an IPv4 CIDR a.b.c.d/N with N from 8 to 32, e.g. 192.0.2.0/24");
        deny("2.4 deny duplicates and overlaps inside the pool", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "172.16.0.0/24", "172.16.0.9/24", "172.16.0.128/25")),
                "spec.addresses[1]: \"172.16.0.9/24\" duplicates spec.addresses[0] \"172.16.0.0/24\"; list each entry once; "
                        + "spec.addresses[2]: \"172.16.0.128/25\" overlaps spec.addresses[0] \"172.16.0.0/24\" (shared: 172.16.0.128-172.16.0.255); entries of a pool must not overlap");
        deny("2.4 deny changing the mode", POOLS, () -> Requests.pool("UPDATE").oldObject(pool("pool-free", "bgp", "100.64.0.0/24"))
                        .object(pool("pool-free", "arp", "100.64.0.1-100.64.0.254")),
                "spec.advertiseMode: cannot change from \"bgp\" to \"arp\"; it is immutable (create another AddressPool instead); "
                        + "spec.addresses: entry \"100.64.0.0/24\" (was spec.addresses[0]) was removed; entries are append-only because VIPs may be allocated from them; accepted: every existing entry kept, new entries added");
        deny("2.4 deny removing an entry", POOLS, () -> Requests.pool("UPDATE").oldObject(pool("pool-b", "bgp", "198.51.100.0/28", "198.51.100.64/31"))
                        .object(pool("pool-b", "bgp", "198.51.100.64/31")),
                "spec.addresses: entry \"198.51.100.0/28\" (was spec.addresses[0]) was removed; entries are append-only because VIPs may be allocated from them; accepted: every existing entry kept, new entries added");
        allow("2.4 allow appending an entry (same entry written differently)", POOLS, () -> Requests.pool("UPDATE")
                .oldObject(pool("pool-b", "bgp", "198.51.100.0/28", "198.51.100.64/31"))
                .object(pool("pool-b", "bgp", "198.51.100.5/28", "198.51.100.64/31", "198.51.100.128/26")));
        deny("2.4 deny overlap with another pool", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "192.0.2.128/25")),
                "spec.addresses[0]: \"192.0.2.128/25\" overlaps AddressPool pool-a entry \"192.0.2.0/24\" (shared: 192.0.2.128-192.0.2.255); an address may belong to only one AddressPool");
        deny("2.4 deny overlap across modes", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "198.51.100.14-198.51.100.20")),
                "spec.addresses[0]: \"198.51.100.14-198.51.100.20\" overlaps AddressPool pool-b entry \"198.51.100.0/28\" (shared: 198.51.100.14-198.51.100.15); an address may belong to only one AddressPool");
        deny("2.4 deny an entry containing Node InternalIPs", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "10.0.0.0/24")),
                "spec.addresses[0]: \"10.0.0.0/24\" contains the InternalIP of 10.0.0.11 (Node node-a), 10.0.0.12 (Node node-b); addresses the cluster network uses must never become VIPs, so leave them out of the entry");
        deny("2.4 deny an entry overlapping a reserved CIDR", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "10.100.0.0/24", "172.31.255.0/24")),
                "spec.addresses[0]: \"10.100.0.0/24\" overlaps reserved CIDR 10.96.0.0/12 (shared: 10.100.0.0-10.100.0.255); the cluster network uses those addresses, so they must never become VIPs; "
                        + "spec.addresses[1]: \"172.31.255.0/24\" overlaps reserved CIDR 172.31.255.1 (shared: 172.31.255.1); the cluster network uses those addresses, so they must never become VIPs");
        deny("2.4 deny an entry overlapping 127.0.0.0/8", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "127.0.0.10-127.0.0.20")),
                "spec.addresses[0]: \"127.0.0.10-127.0.0.20\" overlaps 127.0.0.0/8 (loopback: as a VIP, kube-proxy would capture every node's own traffic to that address and port) (shared: 127.0.0.10-127.0.0.20), which can never be a VIP; accepted: unicast addresses outside 0.0.0.0/8, 127.0.0.0/8, 169.254.0.0/16, 224.0.0.0/4, 240.0.0.0/4");
        deny("2.4 deny an entry overlapping 224.0.0.0/4", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "224.0.0.0/28")),
                "spec.addresses[0]: \"224.0.0.0/28\" overlaps 224.0.0.0/4 (multicast: not a unicast address) (shared: 224.0.0.0-224.0.0.15), which can never be a VIP; accepted: unicast addresses outside 0.0.0.0/8, 127.0.0.0/8, 169.254.0.0/16, 224.0.0.0/4, 240.0.0.0/4");
        deny("2.4 deny an entry overlapping 169.254.0.0/16", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "169.254.10.1-169.254.10.9")),
                "spec.addresses[0]: \"169.254.10.1-169.254.10.9\" overlaps 169.254.0.0/16 (link-local: never routed beyond one link) (shared: 169.254.10.1-169.254.10.9), which can never be a VIP; accepted: unicast addresses outside 0.0.0.0/8, 127.0.0.0/8, 169.254.0.0/16, 224.0.0.0/4, 240.0.0.0/4");
        deny("2.4 deny an entry overlapping 0.0.0.0/8", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "0.0.0.0-0.0.0.3")),
                "spec.addresses[0]: \"0.0.0.0-0.0.0.3\" overlaps 0.0.0.0/8 (\"this network\", a source address only) (shared: 0.0.0.0-0.0.0.3), which can never be a VIP; accepted: unicast addresses outside 0.0.0.0/8, 127.0.0.0/8, 169.254.0.0/16, 224.0.0.0/4, 240.0.0.0/4");
        deny("2.4 deny an entry overlapping 240.0.0.0/4", POOLS, () -> Requests.pool("CREATE").object(pool("p", "arp", "255.255.255.255-255.255.255.255")),
                "spec.addresses[0]: \"255.255.255.255-255.255.255.255\" overlaps 240.0.0.0/4 (reserved for future use, with the broadcast address 255.255.255.255) (shared: 255.255.255.255), which can never be a VIP; accepted: unicast addresses outside 0.0.0.0/8, 127.0.0.0/8, 169.254.0.0/16, 224.0.0.0/4, 240.0.0.0/4");
        denyIn("2.4 deny an entry overlapping a ServiceCIDR or a Node's podCIDR, naming the object", POOLS,
                () -> Fixtures.view(Manifests.serviceCidr("kubernetes", "10.112.0.0/12", "fd00:10:96::/108"),
                        Manifests.nodeWithPodCidrs("worker-1", "10.0.0.21", "10.244.1.0/24", "fd00:244:1::/64")),
                () -> Requests.pool("CREATE").object(pool("p", "arp", "10.112.0.1-10.112.0.9", "10.244.1.250-10.244.2.5")),
                "spec.addresses[0]: \"10.112.0.1-10.112.0.9\" overlaps ServiceCIDR kubernetes 10.112.0.0/12 (shared: 10.112.0.1-10.112.0.9); the cluster network uses those addresses, so they must never become VIPs; "
                        + "spec.addresses[1]: \"10.244.1.250-10.244.2.5\" overlaps Node worker-1 podCIDR 10.244.1.0/24 (shared: 10.244.1.250-10.244.1.255); the cluster network uses those addresses, so they must never become VIPs");
        allowIn("2.4 allow an entry beside the learnt ranges", POOLS,
                () -> Fixtures.view(Manifests.serviceCidr("kubernetes", "10.96.0.0/12"),
                        Manifests.nodeWithPodCidrs("worker-1", "10.0.0.21", "10.244.1.0/24")),
                () -> Requests.pool("CREATE").object(pool("p", "arp", "10.244.2.1-10.244.2.9")));
        allowIn("2.4 allow appending when an old entry contains a Node that joined later", POOLS,
                () -> Fixtures.view(pool("p", "bgp", "10.0.0.0/24"), Manifests.node("late", "10.0.0.7")),
                () -> Requests.pool("UPDATE").oldObject(pool("p", "bgp", "10.0.0.0/24")).object(pool("p", "bgp", "10.0.0.0/24", "10.0.9.0/24")));
        allow("2.4 deletionTimestamp skips cross-object checks", POOLS, () -> Requests.pool("UPDATE")
                .oldObject(Manifests.deletingPool("p", "bgp", "192.0.2.0/25")).object(Manifests.deletingPool("p", "bgp", "192.0.2.0/25", "10.0.0.0/24")));
        deny("2.4 deny DELETE of a listed pool", POOLS, () -> Requests.pool("DELETE").oldObject(pool("pool-a", "bgp", "192.0.2.0/24")),
                "AddressPool pool-a cannot be deleted: ExternalNetwork public lists it in spec.addressPools; delete that ExternalNetwork first (its pool list is append-only)");
        allow("2.4 allow DELETE of an unlisted pool", POOLS, () -> Requests.pool("DELETE").oldObject(pool("pool-free", "bgp", "100.64.0.0/24")));

        // ExternalNetwork
        allow("2.5 allow a new network", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free")));
        deny("2.5 deny an unknown type", NETS, () -> Requests.network("CREATE").object(network("n", "l3", "pool-free")),
                "spec.type: \"l3\" is not supported; accepted: bgp, arp");
        deny("2.5 deny no pools and duplicates", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free", "pool-free")),
                "spec.addressPools[1]: \"pool-free\" is already listed at spec.addressPools[0]; list each AddressPool once");
        deny("2.5 deny an empty pool list", NETS, () -> Requests.network("CREATE").object(network("n", "bgp")),
                "spec.addressPools: at least one AddressPool name is required");
        deny("2.5 deny changing the type", NETS, () -> Requests.network("UPDATE").oldObject(network("l2", "arp", "pool-l2"))
                        .object(network("l2", "bgp", "pool-l2")),
                "spec.type: cannot change from \"arp\" to \"bgp\"; it is immutable (create another ExternalNetwork instead)");
        deny("2.5 deny removing a pool", NETS, () -> Requests.network("UPDATE").oldObject(network("public", "bgp", "pool-a", "pool-b"))
                        .object(network("public", "bgp", "pool-b")),
                "spec.addressPools: \"pool-a\" was removed; the list is append-only because VIPs may be allocated from it; accepted: every listed pool kept, new pools added");
        allow("2.5 allow appending a pool", NETS, () -> Requests.network("UPDATE").oldObject(network("public", "bgp", "pool-a", "pool-b"))
                .object(network("public", "bgp", "pool-a", "pool-b", "pool-free")));
        deny("2.5 deny a missing pool", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-x")),
                "spec.addressPools[0]: AddressPool \"pool-x\" does not exist; existing: pool-a, pool-b, pool-free, pool-free-arp, pool-l2, pool-l2b");
        deny("2.5 deny a mode mismatch", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free-arp")),
                "spec.addressPools[0]: AddressPool \"pool-free-arp\" has advertiseMode arp, but this ExternalNetwork has type bgp; accepted: AddressPools with advertiseMode bgp");
        deny("2.5 deny a pool listed by another network", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free", "pool-a")),
                "spec.addressPools[1]: AddressPool \"pool-a\" is already listed by ExternalNetwork \"public\"; a pool belongs to at most one ExternalNetwork");
        deny("2.5 deny DELETE while ServiceLoadBalancers reference it", NETS, () -> Requests.network("DELETE").oldObject(network("public", "bgp", "pool-a", "pool-b")),
                "ExternalNetwork public cannot be deleted: 2 ServiceLoadBalancers reference it (default/web, team-b/api); delete those Services first");
        denyIn("2.5 deny DELETE names up to 5 and the count", NETS, AdmissionRulesTest::manySlbs,
                () -> Requests.network("DELETE").oldObject(network("public", "bgp", "pool-a")),
                "ExternalNetwork public cannot be deleted: 7 ServiceLoadBalancers reference it (ns/s0, ns/s1, ns/s2, ns/s3, ns/s4 and 2 more); delete those Services first");
        allow("2.5 allow DELETE of an unreferenced network", NETS, () -> Requests.network("DELETE").oldObject(network("broken", "bgp", "pool-missing", "pool-l2b")));

        // request/endpoint mismatch and unreadable content: denials, never exceptions
        deny("envelope: kind/path mismatch", POOLS, () -> create(svc("a").yaml()),
                "/validate/addresspools reviews addresspools.juneau.loutres.me (kind AddressPool) only, but the request is for services; check the webhook configuration's rules");
        deny("envelope: object kind differs from the request", POOLS, () -> Requests.pool("CREATE").object(network("n", "bgp", "pool-free")),
                "/validate/addresspools reviews addresspools.juneau.loutres.me (kind AddressPool) only, but the object is of kind ExternalNetwork.juneau.loutres.me");
        deny("envelope: wrong field type", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", "172.16.0.0/24").replace("addresses: [\"172.16.0.0/24\"]", "addresses: 172.16.0.0/24")),
                "spec.addresses: \"172.16.0.0/24\" has the wrong type for AddressPool; expected a list");
        deny("envelope: unknown field", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free") + "  pools: [a]\n"),
                "spec.pools: unknown field in ExternalNetwork; remove it or check its spelling");
        deny("envelope: no object on CREATE", NETS, () -> Requests.network("CREATE"),
                "the request has no object to review (operation \"CREATE\")");
        deny("envelope: unknown path", "/validate/pods", () -> create(svc("a").yaml()),
                "no admission endpoint at \"/validate/pods\"; served paths: /mutate/services, /validate/services, /validate/addresspools, /validate/externalnetworks, /validate/serviceloadbalancers, /validate/arpadvertisements, /validate/bgppeers, /validate/bfdprofiles, /validate/bgpsessions, /validate/nodenetworks");
        allow("envelope: CONNECT is not reviewed", SVC, () -> Requests.service("CONNECT").object(svc("a").policy("Cluster").yaml()));

        // docs/admission.md: JSON null is an absent field; a null list entry or a missing metadata is a denial naming the field
        String nullPort = "spec.ports[0]: null is not a valid list entry; remove it or give it a value";
        deny("reader: a null port is a denial naming it", SVC, () -> create(svc("a").yaml()
                .replaceFirst("  ports:\n  - \\{name: http[^\n]*\n", "  ports: [null]\n")), nullPort);
        deny("reader: the mutating webhook denies a null port too", MUT, () -> create(svc("a").yaml()
                .replaceFirst("  ports:\n  - \\{name: http[^\n]*\n", "  ports: [null]\n")), nullPort);
        deny("reader: a null pool name", NETS, () -> Requests.network("CREATE").object(network("n", "bgp", "pool-free", null)),
                "spec.addressPools[1]: null is not a valid list entry; remove it or give it a value");
        deny("reader: a null address entry", POOLS, () -> Requests.pool("CREATE").object(pool("p", "bgp", null, "172.16.0.0/24", null)),
                "spec.addresses[0]: null is not a valid list entry; remove it or give it a value; "
                        + "spec.addresses[2]: null is not a valid list entry; remove it or give it a value");
        deny("reader: a Service without metadata", SVC, () -> create(svc("a").yaml()
                .replaceFirst("(?s)metadata:\n.*?(?=spec:)", "")),
                "metadata: missing; every Service needs metadata with a name");
        allow("reader: empty values are absent (labels, finalizers, selector, ipFamilies)", SVC, () -> create(svc("a").yaml()
                .replace("  resourceVersion:", "  labels:\n  finalizers:\n  resourceVersion:")
                .replaceFirst("  selector: \\{app: a\\}", "  selector:\n  ipFamilies:")));
        deny("reader: an empty externalTrafficPolicy is not set", SVC, () -> create(svc("a").policy("").yaml()
                .replace("externalTrafficPolicy: \n", "externalTrafficPolicy:\n")),
                "spec.externalTrafficPolicy: not set; accepted: Local (Juneau announces a VIP only from nodes with a local ready backend)");
        deny("reader: an empty annotation map is no annotation", SVC, () -> create(svc("a").net(null).yaml()
                .replace("  creationTimestamp: \"2026-11-29T10:00:00Z\"\n", "  creationTimestamp: \"2026-11-29T10:00:00Z\"\n  annotations:\n")),
                NET + "missing; set it to the name of an ExternalNetwork (existing: broken, l2, public), or mark one ExternalNetwork juneau.loutres.me/default-network: \"true\" to serve Services without it");
        deny("reader: an annotation with a null value is empty, as the API server stores it", SVC, () -> create(svc("a").net(null).yaml()
                .replace("  creationTimestamp: \"2026-11-29T10:00:00Z\"\n", "  creationTimestamp: \"2026-11-29T10:00:00Z\"\n  annotations:\n    "
                        + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK + ":\n")),
                NET + "empty; set it to the name of an ExternalNetwork (existing: broken, l2, public), or mark one ExternalNetwork juneau.loutres.me/default-network: \"true\" to serve Services without it");
        allow("reader: finalizers: null removes the finalizers (break-glass)", SLBS, () -> Requests.slb("UPDATE")
                .oldObject(webGone).object(webGone.replace("  finalizers: [" + JuneauConstants.FINALIZER + "]\n", "  finalizers:\n")));
    }

    static ClusterView manySlbs() {
        List<String> yamls = new ArrayList<>();
        yamls.add(pool("pool-a", "bgp", "192.0.2.0/24"));
        yamls.add(network("public", "bgp", "pool-a"));
        for (int i = 6; i >= 0; i--) {
            yamls.add(slb("ns", "s" + i, "public", "192.0.2." + (10 + i), ""));
        }
        yamls.add(slb("ns", "other", "elsewhere", null, ""));
        return Fixtures.view(yamls.toArray(String[]::new));
    }

    static Stream<Arguments> cases() {
        return CASES.stream().map(c -> Arguments.of(c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        AdmissionRequest request = c.request().get().build();
        AdmissionResponse response = ENGINE.review(c.path(), request, c.view().get());

        assertThat(response.getUid()).isEqualTo(request.getUid());
        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        if (c.allowed()) {
            assertThat(response.getStatus()).isNull();
        } else {
            assertThat(response.getStatus().getCode()).isEqualTo(403);
            assertThat(response.getStatus().getReason()).isEqualTo("Forbidden");
            assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
        }
        if (c.warning() != null) {
            assertThat(response.getWarnings()).containsExactly(c.warning());
        } else {
            assertThat(response.getWarnings()).isNullOrEmpty();
        }
        assertThat(response.getPatch()).isNull();
        assertThat(response.getPatchType()).isNull();
    }
}
