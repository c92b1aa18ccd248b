package me.loutres.juneau.ip;

import java.util.Locale;
import java.util.Optional;

/**
 * One entry of {@code AddressPool.spec.addresses} of either family (docs/api-reference.md, AddressPool): a CIDR (mode
 * bgp: IPv4 /8-/32, IPv6 /64-/128) or a {@code start-end} range of one family (mode arp). An IPv4 entry is exactly
 * the {@link PoolEntry} it always was, with the same messages; an entry with a colon is IPv6.
 *
 * @param text         the entry exactly as the user wrote it
 * @param range        every address the entry covers (a CIDR: host bits masked, first..last of the prefix)
 * @param prefixLength the CIDR prefix length, or -1 for a {@code start-end} range
 */
public record IpPoolEntry(String text, IpRange range, int prefixLength) {
    public static final int MIN_PREFIX_V6 = 64;
    public static final int MAX_PREFIX_V6 = 128;

    static final String CIDR_ACCEPTED_V6 =
            "expected an IPv6 CIDR with a prefix length from 64 to 128, e.g. 2001:db8:0:1::/64";
    static final String RANGE_ACCEPTED_V6 =
            "expected an IPv6 range start-end with start <= end, e.g. 2001:db8::10-2001:db8::20";

    /**
     * Parses an entry for a pool of the given advertise mode.
     *
     * @throws InvalidAddressException quoting the entry and saying what is accepted for that mode
     */
    public static IpPoolEntry parse(String advertiseMode, String text) {
        if (text == null || text.indexOf(':') < 0) {
            return of(PoolEntry.parse(advertiseMode, text));
        }
        String mode = advertiseMode == null ? "" : advertiseMode.toLowerCase(Locale.ROOT);
        switch (mode) {
            case "bgp":
                return parseCidr(text);
            case "arp":
                return parseRange(text);
            default:
                return of(PoolEntry.parse(advertiseMode, text)); // its words for an unknown mode
        }
    }

    /** The IPv4 entry as one of either family. */
    public static IpPoolEntry of(PoolEntry v4) {
        return new IpPoolEntry(v4.text(), IpRange.of(v4.range()), v4.prefixLength());
    }

    /** What is accepted for the mode, both families. */
    public static String acceptedFor(String advertiseMode) {
        return PoolEntry.acceptedFor(advertiseMode) + ", or "
                + ("arp".equalsIgnoreCase(advertiseMode) ? RANGE_ACCEPTED_V6 : CIDR_ACCEPTED_V6).substring("expected ".length());
    }

    private static IpPoolEntry parseCidr(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        if (t.indexOf('-') >= 0 && slash < 0) {
            throw new InvalidAddressException("\"" + text
                    + "\" is a start-end range, but advertiseMode bgp takes CIDRs; " + CIDR_ACCEPTED_V6);
        }
        if (slash < 0) {
            throw new InvalidAddressException("\"" + text + "\" has no prefix length; " + CIDR_ACCEPTED_V6);
        }
        IpAddress address;
        try {
            address = IpAddress.parse(t.substring(0, slash));
        } catch (InvalidAddressException e) {
            throw new InvalidAddressException("\"" + text + "\" is not a valid CIDR: " + e.getMessage());
        }
        if (address.family() != IpFamily.IPV6) {
            throw new InvalidAddressException("\"" + text + "\" is not a valid CIDR; " + CIDR_ACCEPTED_V6);
        }
        String prefixText = t.substring(slash + 1);
        if (prefixText.isEmpty() || prefixText.length() > 3 || !prefixText.chars().allMatch(Character::isDigit)) {
            throw new InvalidAddressException("\"" + text + "\" has an invalid prefix length \"" + prefixText + "\"; "
                    + CIDR_ACCEPTED_V6);
        }
        int prefix = Integer.parseInt(prefixText);
        if (prefix < MIN_PREFIX_V6 || prefix > MAX_PREFIX_V6) {
            throw new InvalidAddressException("\"" + text + "\" has prefix length /" + prefix
                    + ", outside /64 to /128; " + CIDR_ACCEPTED_V6);
        }
        return new IpPoolEntry(text, new IpRange(address.masked(prefix), address.lastOfPrefix(prefix)), prefix);
    }

    private static IpPoolEntry parseRange(String text) {
        String t = text.trim();
        if (t.indexOf('/') >= 0) {
            throw new InvalidAddressException("\"" + text
                    + "\" is a CIDR, but advertiseMode arp takes start-end ranges; " + RANGE_ACCEPTED_V6);
        }
        int dash = t.indexOf('-');
        if (dash < 0) {
            throw new InvalidAddressException("\"" + text + "\" is not a start-end range; " + RANGE_ACCEPTED_V6);
        }
        String startText = t.substring(0, dash).trim();
        String endText = t.substring(dash + 1).trim();
        IpAddress start = end(text, "start", startText);
        IpAddress end = end(text, "end", endText);
        if (start.family() != end.family()) {
            throw new InvalidAddressException("\"" + text + "\" mixes " + start.family() + " and " + end.family()
                    + "; a range is of one family (list each family as its own entry); " + RANGE_ACCEPTED_V6);
        }
        if (start.compareTo(end) > 0) {
            throw new InvalidAddressException("\"" + text + "\" starts after it ends (" + startText + " > " + endText
                    + "); " + RANGE_ACCEPTED_V6);
        }
        return new IpPoolEntry(text, new IpRange(start, end), -1);
    }

    private static IpAddress end(String text, String which, String endText) {
        try {
            return IpAddress.parse(endText);
        } catch (InvalidAddressException e) {
            throw new InvalidAddressException("\"" + text + "\" has an invalid " + which + " \"" + endText + "\"; "
                    + RANGE_ACCEPTED_V6);
        }
    }

    public IpFamily family() {
        return range.family();
    }

    public boolean isCidr() {
        return prefixLength >= 0;
    }

    /**
     * The address never handed out at the low end: IPv4, the network address of CIDRs shorter than /31 (and the
     * broadcast address at the high end); IPv6, the subnet-router anycast address (all-zero host part) of prefixes
     * shorter than /127 — IPv6 has no broadcast (docs/allocation.md).
     */
    private boolean skipsFirst() {
        return isCidr() && (family() == IpFamily.IPV4 ? prefixLength < 31 : prefixLength < 127);
    }

    private boolean skipsLast() {
        return isCidr() && family() == IpFamily.IPV4 && prefixLength < 31;
    }

    /** The addresses that may become VIPs. */
    public IpRange usable() {
        IpAddress lo = skipsFirst() ? range.first().plus(1) : range.first();
        IpAddress hi = skipsLast() ? range.last().minusOne() : range.last();
        return new IpRange(lo, hi);
    }

    public boolean isUsable(IpAddress address) {
        return usable().contains(address);
    }

    /** True when the address is in the entry but never handed out ({@link #usable}); says which it is. */
    public Optional<String> edge(IpAddress address) {
        if (skipsFirst() && address.equals(range.first())) {
            return Optional.of(family() == IpFamily.IPV4 ? "the network address" : "the subnet-router anycast address");
        }
        if (skipsLast() && address.equals(range.last())) {
            return Optional.of("the broadcast address");
        }
        return Optional.empty();
    }

    /** How many addresses may become VIPs, saturating at {@link Long#MAX_VALUE}. */
    public long usableCount() {
        return usable().size();
    }

    /** The addresses this entry shares with another entry (whole ranges, edges included; none across families). */
    public Optional<IpRange> overlap(IpPoolEntry other) {
        return range.intersection(other.range);
    }

    /** The IPv4 entry, when this is one. */
    public Optional<PoolEntry> ipv4() {
        return family() == IpFamily.IPV4 ? Optional.of(new PoolEntry(text, range.ipv4(), prefixLength)) : Optional.empty();
    }

    /** The entry in normal form: masked CIDR ({@code 2001:db8::/64}) or {@code start-end}. */
    public String canonical() {
        return isCidr() ? range.first() + "/" + prefixLength : range.first() + "-" + range.last();
    }

    @Override
    public String toString() {
        return canonical();
    }
}
