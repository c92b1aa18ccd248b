package me.loutres.juneau.admission;

import static me.loutres.juneau.admission.Manifests.network;
import static me.loutres.juneau.admission.Manifests.pool;
import static me.loutres.juneau.admission.Manifests.svc;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import me.loutres.juneau.view.SnapshotClusterView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/dual-stack.md, admission: every IPv6 and dual-stack rule with a denial and an admission, through the public
 * engine, reviewed through a counting view so no rule walks a whole kind (as {@link IndexedReviewTest} for the rest).
 */
class DualStackAdmissionTest {
    static final String IP = AdmissionRulesTest.IP;
    static final String SVC = AdmissionRulesTest.SVC;
    static final String POOLS = AdmissionRulesTest.POOLS;
    static final AdmissionEngine ENGINE = new AdmissionEngine(new AdmissionSettings(Set.of(Requests.CONTROLLER), List.of()));

    record Case(String rule, String path, Supplier<Requests> request, Boolean allowed, String message) {
        @Override
        public String toString() {
            return rule;
        }
    }

    static final List<Case> CASES = new ArrayList<>();

    static void allow(String rule, String path, Supplier<Requests> r) {
        CASES.add(new Case(rule, path, r, true, null));
    }

    static void deny(String rule, String path, Supplier<Requests> r, String message) {
        CASES.add(new Case(rule, path, r, false, message));
    }

    static SnapshotClusterView cluster() {
        return Fixtures.view(
                pool("pool-v4", "bgp", "192.0.2.0/24"),
                pool("pool-v6", "bgp", "2001:db8:1::/64"),
                pool("pool-ds", "bgp", "198.51.100.0/28", "2001:db8:2::/120"),
                pool("pool-v6only", "bgp", "2001:db8:3::/64"),
                pool("pool-l2ds", "arp", "203.0.113.10-203.0.113.20", "fd00:1::10-fd00:1::20"),
                network("v4only", "bgp", "pool-v4"),
                network("split", "bgp", "pool-v4", "pool-v6"),
                network("dual", "bgp", "pool-ds"),
                network("v6only", "bgp", "pool-v6only"),
                network("l2", "arp", "pool-l2ds"),
                Manifests.node("node-a", "10.0.0.11"),
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-n6\nstatus:\n  addresses:\n"
                        + "  - {type: InternalIP, address: 10.0.0.14}\n  - {type: InternalIP, address: \"fd00:1::15\"}\n",
                Manifests.nodeWithPodCidrs("node-p", "10.0.0.13", "10.244.1.0/24", "fd00:10:244:1::/64"),
                Manifests.serviceCidr("kubernetes", "10.96.0.0/12", "fd00:10:96::/112"),
                Manifests.slb("default", "web", "dual", "198.51.100.1", ""));
    }

    static Requests create(String yaml) {
        return Requests.service("CREATE").object(yaml);
    }

    static Requests createPool(String... entries) {
        return Requests.pool("CREATE").object(pool("new", entries[0], java.util.Arrays.copyOfRange(entries, 1, entries.length)));
    }

    static {
        // --- Services: ipFamilyPolicy and ipFamilies (rule 7) ---
        allow("SingleStack IPv6 on a network with an IPv6 pool", SVC, () -> create(svc("a").net("split").families("[IPv6]").yaml()));
        deny("SingleStack IPv6 on an IPv4-only network", SVC, () -> create(svc("a").net("v4only").families("[IPv6]")
                        .familyPolicy("SingleStack").yaml()),
                "spec.ipFamilies: the Service asks for [IPv6] (SingleStack), but no AddressPool of ExternalNetwork \"v4only\" "
                        + "holds IPv6 addresses; its pools: pool-v4 (IPv4); accepted: a family its pools hold (IPv4), or add "
                        + "IPv6 entries to one of its pools");
        deny("no ipFamilies is IPv4 first: an IPv6-only network cannot serve it", SVC, () -> create(svc("a").net("v6only").yaml()),
                "spec.ipFamilies: the Service asks for [IPv4] (SingleStack), but no AddressPool of ExternalNetwork \"v6only\" "
                        + "holds IPv4 addresses; its pools: pool-v6only (IPv6); accepted: a family its pools hold (IPv6), or add "
                        + "IPv4 entries to one of its pools");
        allow("PreferDualStack on an IPv4-only network falls back to IPv4", SVC, () -> create(svc("a").net("v4only")
                .families("[IPv4, IPv6]").familyPolicy("PreferDualStack").yaml()));
        allow("PreferDualStack on an IPv6-only network falls back to IPv6", SVC, () -> create(svc("a").net("v6only")
                .families("[IPv4, IPv6]").familyPolicy("PreferDualStack").yaml()));
        deny("RequireDualStack needs one pool with both families", SVC, () -> create(svc("a").net("split")
                        .families("[IPv4, IPv6]").familyPolicy("RequireDualStack").yaml()),
                "spec.ipFamilyPolicy: RequireDualStack needs an IPv4 and an IPv6 VIP from one AddressPool, but no AddressPool "
                        + "of ExternalNetwork \"split\" holds both families; its pools: pool-v4 (IPv4), pool-v6 (IPv6); accepted: "
                        + "PreferDualStack or SingleStack, or add the missing family's entries to one pool");
        allow("RequireDualStack with a dual-stack pool", SVC, () -> create(svc("a").net("dual")
                .families("[IPv6, IPv4]").familyPolicy("RequireDualStack").yaml()));
        deny("two families without a policy require both, as the API server defaults it", SVC, () -> create(svc("a")
                        .net("split").families("[IPv4, IPv6]").yaml()),
                "spec.ipFamilyPolicy: RequireDualStack needs an IPv4 and an IPv6 VIP from one AddressPool, but no AddressPool "
                        + "of ExternalNetwork \"split\" holds both families; its pools: pool-v4 (IPv4), pool-v6 (IPv6); accepted: "
                        + "PreferDualStack or SingleStack, or add the missing family's entries to one pool");
        deny("an unknown policy", SVC, () -> create(svc("a").net("dual").familyPolicy("DualStack").yaml()),
                "spec.ipFamilyPolicy: \"DualStack\" is not a policy; accepted: SingleStack, PreferDualStack, RequireDualStack");
        deny("an unknown family and a family twice", SVC, () -> create(svc("a").net("dual").families("[IPv5, IPv4, IPv4]")
                        .familyPolicy("PreferDualStack").yaml()),
                "spec.ipFamilies[0]: \"IPv5\" is not an IP family; accepted: IPv4, IPv6; spec.ipFamilies: [IPv5, IPv4, IPv4] "
                        + "lists IPv4 twice; accepted: one family, or IPv4 and IPv6 in the order their VIPs are wanted");
        deny("SingleStack with two families", SVC, () -> create(svc("a").net("dual").families("[IPv4, IPv6]")
                        .familyPolicy("SingleStack").yaml()),
                "spec.ipFamilies: [IPv4, IPv6] has two families, but spec.ipFamilyPolicy is SingleStack; accepted: one "
                        + "family, or spec.ipFamilyPolicy PreferDualStack or RequireDualStack");

        // --- the requested-ip annotation per family (rule 5) ---
        allow("an IPv6 address of the pool", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("2001:db8:2::5").yaml()));
        allow("any valid IPv6 form", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("2001:DB8:2:0:0::05").yaml()));
        allow("one address per family, IPv4 first", SVC, () -> create(svc("a").net("dual").families("[IPv4, IPv6]")
                .familyPolicy("RequireDualStack").ip("198.51.100.5,2001:db8:2::5").yaml()));
        allow("one address per family, IPv6 first, spaces around the comma", SVC, () -> create(svc("a").net("dual")
                .families("[IPv4, IPv6]").familyPolicy("RequireDualStack").ip("2001:db8:2::5 , 198.51.100.5").yaml()));
        deny("an address of a family the Service does not ask for", SVC, () -> create(svc("a").net("dual").ip("2001:db8:2::5").yaml()),
                IP + "2001:db8:2::5 is an IPv6 address, but the Service asks for [IPv4] (SingleStack) (spec.ipFamilies, "
                        + "spec.ipFamilyPolicy); accepted: an address of IPv4, or add IPv6 to spec.ipFamilies with "
                        + "spec.ipFamilyPolicy PreferDualStack or RequireDualStack");
        deny("two addresses of one family", SVC, () -> create(svc("a").net("dual").ip("198.51.100.5,198.51.100.6").yaml()),
                IP + "\"198.51.100.5,198.51.100.6\" names two IPv4 addresses; a Service has at most one VIP per family; "
                        + "accepted: one address, or an IPv4 and an IPv6 address separated by a comma (e.g. 192.0.2.10,2001:db8::10)");
        deny("three addresses", SVC, () -> create(svc("a").net("dual").ip("198.51.100.5,2001:db8:2::5,2001:db8:2::6").yaml()),
                IP + "\"198.51.100.5,2001:db8:2::5,2001:db8:2::6\" names 3 addresses; accepted: one address, or an IPv4 "
                        + "and an IPv6 address separated by a comma (e.g. 192.0.2.10,2001:db8::10)");
        deny("a zone id", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("fe80::1%eth0").yaml()),
                IP + "\"fe80::1%eth0\" has a zone id (%eth0), which only link-local addresses use and a VIP never has; "
                        + "expected an IPv6 address such as 2001:db8::10, without %zone");
        deny("the IPv4-mapped form", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("::ffff:198.51.100.5").yaml()),
                IP + "::ffff:198.51.100.5 is the IPv4 address 198.51.100.5 written as IPv6 (IPv4-mapped); request "
                        + "198.51.100.5 itself for an IPv4 VIP, or an IPv6 address for an IPv6 one");
        deny("the IPv4-compatible form", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("::198.51.100.5").yaml()),
                IP + "::198.51.100.5 is the IPv4 address 198.51.100.5 written as IPv6 (IPv4-compatible); request "
                        + "198.51.100.5 itself for an IPv4 VIP, or an IPv6 address for an IPv6 one");
        deny("a special-purpose IPv6 address", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("fe80::1").yaml()),
                IP + "fe80::1 is in fe80::/10 (link-local: never routed beyond one link), which can never be a VIP; request "
                        + "a unicast address of the ExternalNetwork's pools, or remove the annotation to get one allocated");
        deny("the subnet-router anycast address", SVC, () -> create(svc("a").net("dual").families("[IPv6]").ip("2001:db8:2::").yaml()),
                IP + "2001:db8:2:: is the subnet-router anycast address of 2001:db8:2::/120 in AddressPool pool-ds, which is "
                        + "never handed out; accepted: an address in 2001:db8:2::1-2001:db8:2::ff (AddressPool pool-ds)");
        deny("an IPv6 address outside the pools lists the IPv6 ranges only", SVC, () -> create(svc("a").net("dual")
                        .families("[IPv6]").ip("2001:db8:7::1").yaml()),
                IP + "2001:db8:7::1 is outside every AddressPool of ExternalNetwork \"dual\"; accepted: an address in "
                        + "2001:db8:2::1-2001:db8:2::ff (AddressPool pool-ds)");
        deny("an arp network: a Node's IPv6 InternalIP", SVC, () -> create(svc("a").net("l2").families("[IPv6]").ip("fd00:1::15").yaml()),
                IP + "fd00:1::15 is the InternalIP of Node node-n6; answering NDP for it would take the address away from "
                        + "the node; request another address, or remove the annotation to get one allocated");
        allow("an arp network: another IPv6 address of the range", SVC, () -> create(svc("a").net("l2").families("[IPv6]")
                .ip("fd00:1::16").yaml()));

        // --- rule 8: a set VIP stays; the other family may be added ---
        allow("adding an IPv6 request keeps the IPv4 VIP", SVC, () -> Requests.service("UPDATE")
                .oldObject(svc("web").net("dual").ip("198.51.100.1").yaml())
                .object(svc("web").net("dual").families("[IPv4, IPv6]").familyPolicy("PreferDualStack")
                        .ip("198.51.100.1,2001:db8:2::9").yaml()));
        deny("changing the IPv4 request with an IPv6 one beside it", SVC, () -> Requests.service("UPDATE")
                        .oldObject(svc("web").net("dual").ip("198.51.100.1").yaml())
                        .object(svc("web").net("dual").families("[IPv4, IPv6]").familyPolicy("PreferDualStack")
                                .ip("198.51.100.2,2001:db8:2::9").yaml()),
                IP + "cannot change from \"198.51.100.1\" to \"198.51.100.2,2001:db8:2::9\"; accepted: \"198.51.100.1\" or no annotation; "
                        + "the VIP of a Service is fixed once allocated (198.51.100.1); delete and re-create the Service to get "
                        + "another address");

        // --- AddressPools of either family (docs/api-reference.md, AddressPool) ---
        allow("an IPv6 /64", POOLS, () -> createPool("bgp", "2001:db8:5::/64"));
        allow("both families in one pool", POOLS, () -> createPool("bgp", "198.18.0.0/24", "2001:db8:5::/120"));
        allow("unique-local addresses", POOLS, () -> createPool("arp", "fd12:3456::10-fd12:3456::20"));
        deny("an IPv6 prefix shorter than /64", POOLS, () -> createPool("bgp", "2001:db8:5::/63"),
                "spec.addresses[0]: \"2001:db8:5::/63\" has prefix length /63, outside /64 to /128; expected an IPv6 CIDR "
                        + "with a prefix length from 64 to 128, e.g. 2001:db8:0:1::/64");
        deny("a range of two families", POOLS, () -> createPool("arp", "203.0.113.1-fd00::1"),
                "spec.addresses[0]: \"203.0.113.1-fd00::1\" mixes IPv4 and IPv6; a range is of one family (list each family "
                        + "as its own entry); expected an IPv6 range start-end with start <= end, e.g. 2001:db8::10-2001:db8::20");
        deny("link-local", POOLS, () -> createPool("bgp", "fe80::/64"),
                "spec.addresses[0]: \"fe80::/64\" overlaps fe80::/10 (link-local: never routed beyond one link) (shared: "
                        + "fe80::-fe80::ffff:ffff:ffff:ffff), which can never be a VIP; accepted: unicast addresses outside ::/128, "
                        + "::1/128, ::ffff:0:0/96, 64:ff9b::/96, 100::/64, fe80::/10, ff00::/8 (documentation 2001:db8::/32 and "
                        + "unique-local fc00::/7 addresses are fine)");
        deny("the unspecified and loopback addresses, each named", POOLS, () -> createPool("arp", "::-::5"),
                "spec.addresses[0]: \"::-::5\" overlaps ::/128 (the unspecified address, a source address only) (shared: ::), "
                        + "which can never be a VIP; accepted: unicast addresses outside ::/128, ::1/128, ::ffff:0:0/96, "
                        + "64:ff9b::/96, 100::/64, fe80::/10, ff00::/8 (documentation 2001:db8::/32 and unique-local fc00::/7 "
                        + "addresses are fine); spec.addresses[0]: \"::-::5\" overlaps ::1/128 (loopback: as a VIP, kube-proxy "
                        + "would capture every node's own traffic to that address and port) (shared: ::1), which can never be "
                        + "a VIP; accepted: unicast addresses outside ::/128, ::1/128, ::ffff:0:0/96, 64:ff9b::/96, 100::/64, "
                        + "fe80::/10, ff00::/8 (documentation 2001:db8::/32 and unique-local fc00::/7 addresses are fine)");
        for (String[] special : new String[][] {{"::ffff:0:0/96", "IPv4-mapped"}, {"64:ff9b::/96", "NAT64"},
                {"100::/64", "discard-only"}, {"ff02::/64", "multicast"}}) {
            CASES.add(new Case("special-purpose " + special[0], POOLS, () -> createPool("bgp", special[0]), false, special[1]));
        }
        deny("overlapping another pool's IPv6 entry", POOLS, () -> createPool("bgp", "2001:db8:2::80/121"),
                "spec.addresses[0]: \"2001:db8:2::80/121\" overlaps AddressPool pool-ds entry \"2001:db8:2::/120\" (shared: "
                        + "2001:db8:2::80-2001:db8:2::ff); an address may belong to only one AddressPool");
        deny("two entries of the pool overlapping", POOLS, () -> createPool("bgp", "2001:db8:6::/120", "2001:db8:6::/124"),
                "spec.addresses[1]: \"2001:db8:6::/124\" overlaps spec.addresses[0] \"2001:db8:6::/120\" (shared: "
                        + "2001:db8:6::-2001:db8:6::f); entries of a pool must not overlap");
        deny("holding a Node's IPv6 InternalIP", POOLS, () -> createPool("arp", "fd00:1::15-fd00:1::15"),
                "spec.addresses[0]: \"fd00:1::15-fd00:1::15\" overlaps AddressPool pool-l2ds entry \"fd00:1::10-fd00:1::20\" "
                        + "(shared: fd00:1::15); an address may belong to only one AddressPool; spec.addresses[0]: "
                        + "\"fd00:1::15-fd00:1::15\" contains the InternalIP of fd00:1::15 (Node node-n6); addresses the cluster "
                        + "network uses must never become VIPs, so leave them out of the entry");
        deny("an IPv6 ServiceCIDR and podCIDR", POOLS, () -> createPool("bgp", "fd00:10:96::/120", "fd00:10:244:1::/120"),
                "spec.addresses[0]: \"fd00:10:96::/120\" overlaps ServiceCIDR kubernetes fd00:10:96::/112 (shared: "
                        + "fd00:10:96::-fd00:10:96::ff); the cluster network uses those addresses, so they must never become VIPs; "
                        + "spec.addresses[1]: \"fd00:10:244:1::/120\" overlaps Node node-p podCIDR fd00:10:244:1::/64 (shared: "
                        + "fd00:10:244:1::-fd00:10:244:1::ff); the cluster network uses those addresses, so they must never "
                        + "become VIPs");
        allow("an IPv6 entry written in another form is the same entry (append-only)", POOLS, () -> Requests.pool("UPDATE")
                .oldObject(pool("pool-v6", "bgp", "2001:db8:1::/64"))
                .object(pool("pool-v6", "bgp", "2001:DB8:1:0::/64", "2001:db8:8::/64")));
        deny("removing an IPv6 entry", POOLS, () -> Requests.pool("UPDATE")
                        .oldObject(pool("pool-ds", "bgp", "198.51.100.0/28", "2001:db8:2::/120"))
                        .object(pool("pool-ds", "bgp", "198.51.100.0/28")),
                "spec.addresses: entry \"2001:db8:2::/120\" (was spec.addresses[1]) was removed; entries are append-only "
                        + "because VIPs may be allocated from them; accepted: every existing entry kept, new entries added");
    }

    static Stream<Case> cases() {
        return CASES.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        CountingClusterView view = new CountingClusterView(cluster());
        AdmissionRequest request = c.request().get().build();
        AdmissionResponse response = ENGINE.review(c.path(), request, view);

        assertThat(response.getAllowed()).as("allowed").isEqualTo(c.allowed());
        if (c.allowed()) {
            assertThat(response.getStatus()).isNull();
        } else if (c.message().startsWith(IP) || c.message().startsWith("spec.")) {
            assertThat(response.getStatus().getMessage()).isEqualTo(c.message());
        } else {
            assertThat(response.getStatus().getMessage()).contains(c.message()).contains("which can never be a VIP");
        }
        for (String method : CountingClusterView.WHOLE_KIND) {
            assertThat(view.calls(method)).as(method + "() during the review").isZero();
        }
    }
}
