package me.loutres.juneau.status;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.PortStatus;

/** Aggregates a Service's EndpointSlices into what the status shows (docs/phases-and-conditions.md). */
public final class Backends {
    static final String IPV4 = "IPv4";

    private Backends() {
    }

    /**
     * @param service the Service
     * @param slices  its EndpointSlices (the caller selects them by label {@code kubernetes.io/service-name}); slices
     *                that are not IPv4, or labelled for another Service, are ignored
     */
    public static BackendState aggregate(Service service, Collection<EndpointSlice> slices) {
        return aggregate(service, slices, node -> true);
    }

    /**
     * As {@link #aggregate(Service, Collection)}, where an endpoint on a node {@code mayAnnounce} refuses counts in
     * neither summary (docs/api-reference.md: an excluded or unselected node takes no load-balancer traffic, so its
     * pods are no backends of the VIP); such nodes are listed in {@link BackendState#leftOut()}.
     */
    public static BackendState aggregate(Service service, Collection<EndpointSlice> slices,
            Predicate<String> mayAnnounce) {
        List<EndpointSlice> ipv4 = new ArrayList<>();
        String serviceName = service == null || service.getMetadata() == null ? null : service.getMetadata().getName();
        if (slices != null) {
            for (EndpointSlice s : slices) {
                if (s != null && IPV4.equals(s.getAddressType()) && belongsTo(s, serviceName)) {
                    ipv4.add(s);
                }
            }
        }
        Set<String> nodes = new TreeSet<>();
        Set<String> leftOut = new TreeSet<>();
        Set<String> addresses = new HashSet<>();
        for (EndpointSlice s : ipv4) {
            if (s.getEndpoints() == null) {
                continue;
            }
            for (Endpoint e : s.getEndpoints()) {
                if (e == null || !counts(e.getConditions())) {
                    continue;
                }
                String node = e.getNodeName() == null || e.getNodeName().isEmpty() ? null : e.getNodeName();
                if (node != null && !mayAnnounce.test(node)) {
                    leftOut.add(node);
                    continue;
                }
                if (e.getAddresses() != null) {
                    for (String a : e.getAddresses()) {
                        if (a != null && !a.isEmpty()) {
                            addresses.add(a);
                        }
                    }
                }
                if (node != null) {
                    nodes.add(node);
                }
            }
        }
        List<PortStatus> ports = new ArrayList<>();
        List<String> unresolved = new ArrayList<>();
        if (service != null && service.getSpec() != null && service.getSpec().getPorts() != null) {
            for (ServicePort p : service.getSpec().getPorts()) {
                if (p == null || p.getPort() == null) {
                    continue;
                }
                String protocol = p.getProtocol() == null ? "TCP" : p.getProtocol();
                Integer target = resolveTarget(p, protocol, ipv4);
                if (target == null) {
                    unresolved.add(isBlank(p.getName()) ? p.getPort() + "/" + protocol : p.getName());
                } else {
                    ports.add(new PortStatus(p.getName(), protocol, p.getPort(), target));
                }
            }
        }
        ports.sort(Comparator.comparing(PortStatus::getPort).thenComparing(PortStatus::getProtocol));
        return new BackendState(List.copyOf(nodes), addresses.size(), ports, unresolved, List.copyOf(leftOut));
    }

    /** Ready (unset = true), serving (unset = ready) and not terminating (unset = false). */
    static boolean counts(EndpointConditions c) {
        boolean ready = c == null || c.getReady() == null || c.getReady();
        boolean serving = c == null || c.getServing() == null ? ready : c.getServing();
        boolean terminating = c != null && c.getTerminating() != null && c.getTerminating();
        return ready && serving && !terminating;
    }

    private static boolean belongsTo(EndpointSlice s, String serviceName) {
        if (serviceName == null || s.getMetadata() == null || s.getMetadata().getLabels() == null) {
            return true;
        }
        String label = s.getMetadata().getLabels().get(JuneauConstants.SERVICE_NAME_LABEL);
        return label == null || label.equals(serviceName);
    }

    /**
     * Integer targetPort (0 or unset means the port itself); a named one is looked up, as the EndpointSlice
     * controller publishes it, under the Service port's name in the slices' ports. Pods may disagree on the
     * number; the lowest wins so the result does not depend on slice order. Null when unresolvable.
     */
    private static Integer resolveTarget(ServicePort p, String protocol, List<EndpointSlice> slices) {
        IntOrString t = p.getTargetPort();
        if (t == null || (t.getStrVal() == null && (t.getIntVal() == null || t.getIntVal() == 0))) {
            return p.getPort();
        }
        if (t.getStrVal() == null) {
            return t.getIntVal();
        }
        String name = p.getName() == null ? "" : p.getName();
        Integer best = null;
        for (EndpointSlice s : slices) {
            if (s.getPorts() == null) {
                continue;
            }
            for (EndpointPort ep : s.getPorts()) {
                if (ep == null || ep.getPort() == null) {
                    continue;
                }
                String epName = ep.getName() == null ? "" : ep.getName();
                String epProtocol = ep.getProtocol() == null ? "TCP" : ep.getProtocol();
                if (epName.equals(name) && Objects.equals(epProtocol, protocol)
                        && (best == null || ep.getPort() < best)) {
                    best = ep.getPort();
                }
            }
        }
        return best;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
