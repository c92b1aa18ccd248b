package me.loutres.juneau.ip;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One entry of {@code AddressPool.spec.addresses}: a CIDR (mode bgp) or a {@code start-end} range (mode arp).
 *
 * @param text         the entry exactly as the user wrote it
 * @param range        every address the entry covers (for a CIDR: host bits masked, network..broadcast)
 * @param prefixLength the CIDR prefix length, or -1 for a {@code start-end} range
 */
public record PoolEntry(String text, AddressRange range, int prefixLength) {
    public static final int MIN_PREFIX = 8;
    public static final int MAX_PREFIX = 32;

    private static final String CIDR_ACCEPTED = "expected an IPv4 CIDR a.b.c.d/N with N from 8 to 32, e.g. 192.0.2.0/24";
    private static final String RANGE_ACCEPTED = "expected an IPv4 range start-end with start <= end, e.g. 192.0.2.10-192.0.2.20";

    /**
     * Parses an entry for a pool of the given advertise mode.
     *
     * @throws InvalidAddressException quoting the entry and saying what is accepted for that mode
     */
    public static PoolEntry parse(String advertiseMode, String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidAddressException("an entry is empty (\"" + (text == null ? "" : text) + "\"); "
                    + acceptedFor(advertiseMode));
        }
        String mode = advertiseMode == null ? "" : advertiseMode.toLowerCase(Locale.ROOT);
        switch (mode) {
            case "bgp":
                return parseCidr(text);
            case "arp":
                return parseRange(text);
            default:
                throw new InvalidAddressException("\"" + text + "\" cannot be checked: advertiseMode \"" + advertiseMode
                        + "\" is not bgp or arp");
        }
    }

    public static String acceptedFor(String advertiseMode) {
        return "arp".equalsIgnoreCase(advertiseMode) ? RANGE_ACCEPTED : CIDR_ACCEPTED;
    }

    private static PoolEntry parseCidr(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        if (t.indexOf('-') >= 0 && slash < 0) {
            throw new InvalidAddressException("\"" + text
                    + "\" is a start-end range, but advertiseMode bgp takes CIDRs; " + CIDR_ACCEPTED);
        }
        if (slash < 0) {
            throw new InvalidAddressException("\"" + text + "\" has no prefix length; " + CIDR_ACCEPTED);
        }
        long address;
        try {
            address = Ipv4.parse(t.substring(0, slash));
        } catch (InvalidAddressException e) {
            throw new InvalidAddressException("\"" + text + "\" is not a valid CIDR: \"" + t.substring(0, slash)
                    + "\" is not an IPv4 address; " + CIDR_ACCEPTED);
        }
        String prefixText = t.substring(slash + 1);
        int prefix;
        if (prefixText.isEmpty() || prefixText.length() > 2 || !prefixText.chars().allMatch(Character::isDigit)) {
            throw new InvalidAddressException("\"" + text + "\" has an invalid prefix length \"" + prefixText + "\"; "
                    + CIDR_ACCEPTED);
        }
        prefix = Integer.parseInt(prefixText);
        if (prefix < MIN_PREFIX || prefix > MAX_PREFIX) {
            throw new InvalidAddressException("\"" + text + "\" has prefix length /" + prefix
                    + ", outside /8 to /32; " + CIDR_ACCEPTED);
        }
        long mask = Ipv4.mask(prefix);
        long network = address & mask;
        long broadcast = network | (~mask & Ipv4.MAX);
        return new PoolEntry(text, new AddressRange(network, broadcast), prefix);
    }

    private static PoolEntry parseRange(String text) {
        String t = text.trim();
        if (t.indexOf('/') >= 0) {
            throw new InvalidAddressException("\"" + text
                    + "\" is a CIDR, but advertiseMode arp takes start-end ranges; " + RANGE_ACCEPTED);
        }
        int dash = t.indexOf('-');
        if (dash < 0) {
            throw new InvalidAddressException("\"" + text + "\" is not a start-end range; " + RANGE_ACCEPTED);
        }
        String startText = t.substring(0, dash).trim();
        String endText = t.substring(dash + 1).trim();
        long start;
        long end;
        try {
            start = Ipv4.parse(startText);
        } catch (InvalidAddressException e) {
            throw new InvalidAddressException("\"" + text + "\" has an invalid start \"" + startText + "\"; "
                    + RANGE_ACCEPTED);
        }
        try {
            end = Ipv4.parse(endText);
        } catch (InvalidAddressException e) {
            throw new InvalidAddressException("\"" + text + "\" has an invalid end \"" + endText + "\"; "
                    + RANGE_ACCEPTED);
        }
        if (start > end) {
            throw new InvalidAddressException("\"" + text + "\" starts after it ends (" + startText + " > " + endText
                    + "); " + RANGE_ACCEPTED);
        }
        return new PoolEntry(text, new AddressRange(start, end), -1);
    }

    public boolean isCidr() {
        return prefixLength >= 0;
    }

    /** True for CIDRs shorter than /31, whose network and broadcast addresses are never handed out (docs/allocation.md). */
    public boolean skipsEdges() {
        return isCidr() && prefixLength < 31;
    }

    /** The addresses that may become VIPs: the whole range, minus network/broadcast for CIDRs shorter than /31. */
    public AddressRange usable() {
        return skipsEdges() ? new AddressRange(range.first() + 1, range.last() - 1) : range;
    }

    public boolean isUsable(long address) {
        return usable().contains(address);
    }

    /** True when the address is the network or broadcast address of a CIDR shorter than /31. */
    public boolean isEdge(long address) {
        return skipsEdges() && (address == range.first() || address == range.last());
    }

    public long usableCount() {
        return usable().size();
    }

    /** The addresses this entry shares with another entry (whole ranges, edges included). */
    public Optional<AddressRange> overlap(PoolEntry other) {
        return range.intersection(other.range);
    }

    /** The entry in normal form: masked CIDR ({@code 10.0.0.0/24}) or {@code start-end}. */
    public String canonical() {
        if (isCidr()) {
            return Ipv4.format(range.first()) + "/" + prefixLength;
        }
        return Ipv4.format(range.first()) + "-" + Ipv4.format(range.last());
    }

    /** Parses all entries, throwing on the first bad one (for data already admitted). */
    public static List<PoolEntry> parseAll(String advertiseMode, List<String> texts) {
        return texts.stream().map(t -> parse(advertiseMode, t)).toList();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
