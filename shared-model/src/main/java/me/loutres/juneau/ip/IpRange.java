package me.loutres.juneau.ip;

import java.util.Optional;

/** An inclusive range of addresses of one family, {@code first <= last}. */
public record IpRange(IpAddress first, IpAddress last) implements Comparable<IpRange> {

    public IpRange {
        if (first.family() != last.family() || first.compareTo(last) > 0) {
            throw new IllegalArgumentException("bad range " + first + "-" + last);
        }
    }

    public static IpRange single(IpAddress address) {
        return new IpRange(address, address);
    }

    /** The same addresses as an IPv4 {@link AddressRange}. */
    public static IpRange of(AddressRange range) {
        return new IpRange(IpAddress.ipv4(range.first()), IpAddress.ipv4(range.last()));
    }

    public IpFamily family() {
        return first.family();
    }

    /** The IPv4 range; only for an IPv4 range. */
    public AddressRange ipv4() {
        return new AddressRange(first.ipv4Value(), last.ipv4Value());
    }

    /**
     * How many addresses the range holds, saturating at {@link Long#MAX_VALUE} (a /64 holds 2^64): a count that
     * cannot overflow or turn negative (docs/api-reference.md, AddressPool status).
     */
    public long size() {
        long dHi = last.hi() - first.hi() - (Long.compareUnsigned(last.lo(), first.lo()) < 0 ? 1 : 0);
        long dLo = last.lo() - first.lo();
        if (dHi != 0 || dLo < 0 || dLo == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return dLo + 1;
    }

    public boolean contains(IpAddress address) {
        return first.compareTo(address) <= 0 && address.compareTo(last) <= 0;
    }

    public boolean overlaps(IpRange other) {
        return first.compareTo(other.last) <= 0 && other.first.compareTo(last) <= 0;
    }

    /** The addresses both ranges share, if any (none across families). */
    public Optional<IpRange> intersection(IpRange other) {
        if (family() != other.family()) {
            return Optional.empty();
        }
        IpAddress lo = first.compareTo(other.first) >= 0 ? first : other.first;
        IpAddress hi = last.compareTo(other.last) <= 0 ? last : other.last;
        return lo.compareTo(hi) <= 0 ? Optional.of(new IpRange(lo, hi)) : Optional.empty();
    }

    @Override
    public int compareTo(IpRange o) {
        int c = first.compareTo(o.first);
        return c != 0 ? c : last.compareTo(o.last);
    }

    /** {@code 2001:db8::5} for one address, {@code 2001:db8::5-2001:db8::9} otherwise. */
    @Override
    public String toString() {
        return first.equals(last) ? first.toString() : first + "-" + last;
    }

    /** Saturating sum of two counts (each 0..MAX_VALUE). */
    public static long saturatingAdd(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }
}
