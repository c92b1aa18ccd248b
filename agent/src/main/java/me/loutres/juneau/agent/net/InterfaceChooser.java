package me.loutres.juneau.agent.net;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import me.loutres.juneau.ip.Ipv4;

/**
 * Which interface answers ARP for a VIP (README.md, "How a VIP answers"): the interface whose IPv4 prefix contains the VIP, among the
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
        List<InterfaceInfo> usable = interfaces.stream()
                .filter(i -> !i.loopback() && i.mac() != null && i.up())
                .filter(i -> candidates.isEmpty() || candidates.contains(i.name()))
                .sorted(Comparator.comparing(InterfaceInfo::name))
                .toList();
        Optional<InterfaceInfo> onLink = usable.stream().filter(i -> i.onLinkFor(vip)).findFirst();
        if (onLink.isPresent()) {
            return new Chosen(onLink.get());
        }
        if (candidates.size() == 1 && usable.size() == 1) {
            return new Chosen(usable.get(0));
        }
        String where = candidates.isEmpty() ? "no up interface has an IPv4 prefix containing " + Ipv4.format(vip)
                : "none of " + namedBy + " (" + String.join(", ", candidates) + ")" + " is up with an IPv4 prefix containing "
                        + Ipv4.format(vip);
        String seen = usable.isEmpty() ? "no usable interface" : usable.stream()
                .map(i -> i.name() + " " + i.prefixes().stream().map(Object::toString).collect(Collectors.joining(",")))
                .collect(Collectors.joining("; "));
        return new NotFound(where + " (seen: " + seen + "); " + hint);
    }
}
