package me.loutres.juneau.agent.net;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.Ipv4;

/**
 * Which interface answers ARP (or NDP, for an IPv6 VIP: docs/ndp.md) for a VIP (README.md, "How a VIP answers"): the
 * interface whose prefix of the VIP's family contains the VIP (for IPv6 a global or unique-local one), among the
 * operator's {@code --interface} candidates when given. A VIP outside every prefix is answered on a candidate only
 * when exactly one was named (the operator said where the network is); otherwise nothing is guessed. Pure.
 */
public final class InterfaceChooser {
    private final List<String> candidates;
    private final String namedBy;
    private final String hint;

    /** @param candidates the {@code --interface} names, empty for "any interface" */
    public InterfaceChooser(List<String> candidates) {
        this(candidates, "--interface", "add an address of that network to the node's interface or name it with"
                + " --interface");
    }

    /**
     * @param candidates the names allowed, empty for "any interface"
     * @param namedBy    where they come from, for the message (e.g. {@code --interface})
     * @param hint       what to do when none fits, for the message
     */
    public InterfaceChooser(List<String> candidates, String namedBy, String hint) {
        this.candidates = List.copyOf(candidates);
        this.namedBy = namedBy;
        this.hint = hint;
    }

    /** The chosen interface, or a reason (for status {@code InterfaceNotFound}) why none could be. */
    public sealed interface Choice {
    }

    public record Chosen(InterfaceInfo iface) implements Choice {
    }

    public record NotFound(String message) implements Choice {
    }

    public Choice choose(long vip, List<InterfaceInfo> interfaces) {
        return choose(i -> i.onLinkFor(vip), "IPv4", Ipv4.format(vip), interfaces);
    }

    /** The same rule for an address of either family. */
    public Choice choose(IpAddress vip, List<InterfaceInfo> interfaces) {
        if (vip.family() == IpFamily.IPV4) {
            return choose(vip.ipv4Value(), interfaces);
        }
        return choose(i -> i.onLinkFor(vip), "IPv6", vip.toString(), interfaces);
    }

    private Choice choose(Predicate<InterfaceInfo> onLinkFor, String family, String vipText,
            List<InterfaceInfo> interfaces) {
        List<InterfaceInfo> usable = interfaces.stream()
                .filter(i -> !i.loopback() && i.mac() != null && i.up())
                .filter(i -> candidates.isEmpty() || candidates.contains(i.name()))
                .sorted(Comparator.comparing(InterfaceInfo::name))
                .toList();
        Optional<InterfaceInfo> onLink = usable.stream().filter(onLinkFor).findFirst();
        if (onLink.isPresent()) {
            return new Chosen(onLink.get());
        }
        if (candidates.size() == 1 && usable.size() == 1) {
            return new Chosen(usable.get(0));
        }
        String where = candidates.isEmpty() ? "no up interface has an " + family + " prefix containing " + vipText
                : "none of " + namedBy + " (" + String.join(", ", candidates) + ")" + " is up with an " + family
                        + " prefix containing " + vipText;
        String seen = usable.isEmpty() ? "no usable interface" : usable.stream()
                .map(i -> i.name() + " " + (family.equals("IPv4") ? i.prefixes() : i.ipv6Prefixes()).stream()
                        .map(Object::toString).collect(Collectors.joining(",")))
                .collect(Collectors.joining("; "));
        return new NotFound(where + " (seen: " + seen + "); " + hint);
    }
}
