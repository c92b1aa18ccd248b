package me.loutres.juneau.admission;

import java.util.List;
import java.util.Set;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.ip.AddressRange;
import me.loutres.juneau.ip.Ipv4;
import me.loutres.juneau.policy.ManagedServices;

/**
 * What the operator tells the webhook at start: who the controller is (only it may write ServiceLoadBalancers and
 * ARPAdvertisements) and which address blocks the cluster already uses (never allowed inside an AddressPool).
 *
 * @param controllerUsernames userInfo.username values of the controller (docs/admission.md)
 * @param reservedCidrs       CIDRs (a.b.c.d/N, N 0-32) or single addresses: Service and Pod CIDRs, gateways (docs/admission.md)
 * @param agentUsernames      userInfo.username values of the node agent, which may write only ARPAdvertisement status
 *                            (docs/admission.md)
 * @param managed             which Services are Juneau's ({@code --manage-unclassed}); the same decision as the
 *                            controller's (docs/install.md, "Unclassed Services")
 */
public record AdmissionSettings(Set<String> controllerUsernames, List<String> reservedCidrs,
                                Set<String> agentUsernames, ManagedServices managed) {

    /**
     * @throws IllegalArgumentException for a reserved CIDR that cannot be parsed (operator configuration, checked once
     *                                  at start so a typo cannot silently disable the protection)
     */
    public AdmissionSettings {
        controllerUsernames = Set.copyOf(controllerUsernames == null || controllerUsernames.isEmpty()
                ? Set.of(JuneauConstants.DEFAULT_CONTROLLER_USERNAME) : controllerUsernames);
        reservedCidrs = List.copyOf(reservedCidrs == null ? List.of() : reservedCidrs);
        agentUsernames = Set.copyOf(agentUsernames == null || agentUsernames.isEmpty()
                ? Set.of(JuneauConstants.DEFAULT_AGENT_USERNAME) : agentUsernames);
        managed = managed == null ? ManagedServices.CLASSED : managed;
        for (String cidr : reservedCidrs) {
            ReservedCidr.parse(cidr);
        }
    }

    /** Only Services of Juneau's class ({@link ManagedServices#CLASSED}). */
    public AdmissionSettings(Set<String> controllerUsernames, List<String> reservedCidrs, Set<String> agentUsernames) {
        this(controllerUsernames, reservedCidrs, agentUsernames, null);
    }

    /** The default node-agent identity. */
    public AdmissionSettings(Set<String> controllerUsernames, List<String> reservedCidrs) {
        this(controllerUsernames, reservedCidrs, null, null);
    }

    public static AdmissionSettings defaults() {
        return new AdmissionSettings(Set.of(JuneauConstants.DEFAULT_CONTROLLER_USERNAME), List.of());
    }

    /** The reserved blocks as ranges, in the order given. */
    public List<ReservedCidr> reservedRanges() {
        return reservedCidrs.stream().map(ReservedCidr::parse).toList();
    }

    /** A reserved block: its text as configured and the addresses it covers. */
    public record ReservedCidr(String text, AddressRange range) {
        /** Parses {@code a.b.c.d/N} (N from 0 to 32, host bits masked) or a single address {@code a.b.c.d}. */
        public static ReservedCidr parse(String text) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("reserved CIDR is empty; expected a.b.c.d/N such as 10.96.0.0/12");
            }
            String t = text.trim();
            int slash = t.indexOf('/');
            try {
                if (slash < 0) {
                    return new ReservedCidr(t, AddressRange.single(Ipv4.parse(t)));
                }
                long address = Ipv4.parse(t.substring(0, slash));
                int prefix = Integer.parseInt(t.substring(slash + 1));
                if (prefix < 0 || prefix > 32) {
                    throw new NumberFormatException();
                }
                long mask = Ipv4.mask(prefix);
                long network = address & mask;
                return new ReservedCidr(t, new AddressRange(network, network | (~mask & Ipv4.MAX)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("reserved CIDR \"" + text
                        + "\" is not valid; expected a.b.c.d/N with N from 0 to 32 (such as 10.96.0.0/12) or one address");
            }
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
