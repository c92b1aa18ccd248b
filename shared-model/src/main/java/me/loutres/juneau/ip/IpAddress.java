package me.loutres.juneau.ip;

/**
 * One IPv4 or IPv6 address as a 128-bit unsigned value ({@code hi}, {@code lo}); an IPv4 address is its 32-bit value
 * in {@code lo}. Parsed and formatted here, never through {@code InetAddress}, which would resolve a host name given
 * where an address belongs and accepts forms the kube-apiserver refuses.
 */
public record IpAddress(IpFamily family, long hi, long lo) implements Comparable<IpAddress> {
    public static final String ACCEPTED =
            "expected an IPv4 dotted quad such as 192.0.2.10 or an IPv6 address such as 2001:db8::10";

    public IpAddress {
        if (family == IpFamily.IPV4 && (hi != 0 || lo < 0 || lo > Ipv4.MAX)) {
            throw new IllegalArgumentException("not a 32-bit address: " + hi + "/" + lo);
        }
    }

    public static IpAddress ipv4(long value) {
        return new IpAddress(IpFamily.IPV4, 0, value);
    }

    public static IpAddress ipv6(long hi, long lo) {
        return new IpAddress(IpFamily.IPV6, hi, lo);
    }

    /**
     * Parses an address of either family: a strict IPv4 dotted quad ({@link Ipv4#parse}), or IPv6 in any RFC 4291
     * text form ({@link Ipv6#parse}). A zone id ({@code %eth0}) is refused.
     *
     * @throws InvalidAddressException quoting the text and saying what is accepted
     */
    public static IpAddress parse(String text) {
        if (text != null && text.indexOf(':') >= 0) {
            return Ipv6.parse(text);
        }
        if (text != null && text.indexOf('%') >= 0) {
            throw Ipv6.zoneId(text);
        }
        if (text != null && !text.isEmpty() && text.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'))) {
            return ipv4(Ipv4.parse(text)); // meant as IPv4: its precise words (leading zeros, octet above 255)
        }
        throw new InvalidAddressException("\"" + (text == null ? "" : text) + "\" is not an IP address; " + ACCEPTED);
    }

    /** True when {@link #parse} accepts the text. */
    public static boolean isValid(String text) {
        try {
            parse(text);
            return true;
        } catch (InvalidAddressException e) {
            return false;
        }
    }

    /** The IPv4 value; only for an IPv4 address. */
    public long ipv4Value() {
        if (family != IpFamily.IPV4) {
            throw new IllegalStateException(this + " is not an IPv4 address");
        }
        return lo;
    }

    /** This address plus {@code n} (n >= 0), or null past the family's last address. */
    public IpAddress plus(long n) {
        if (family == IpFamily.IPV4) {
            long v = lo + n;
            return v > Ipv4.MAX || v < lo ? null : ipv4(v);
        }
        long newLo = lo + n;
        long carry = Long.compareUnsigned(newLo, lo) < 0 ? 1 : 0;
        long newHi = hi + carry;
        if (carry == 1 && hi == -1L) {
            return null;
        }
        return ipv6(newHi, newLo);
    }

    /** This address minus one, or null below the family's first address. */
    public IpAddress minusOne() {
        if (hi == 0 && lo == 0) {
            return null;
        }
        if (family == IpFamily.IPV4) {
            return ipv4(lo - 1);
        }
        return ipv6(lo == 0 ? hi - 1 : hi, lo - 1);
    }

    /** The address with every bit after the first {@code prefixLength} cleared. */
    public IpAddress masked(int prefixLength) {
        if (family == IpFamily.IPV4) {
            return ipv4(lo & Ipv4.mask(prefixLength));
        }
        return ipv6(hi & Ipv6.highMask(prefixLength), lo & Ipv6.lowMask(prefixLength));
    }

    /** The last address of the prefix of this length holding this address. */
    public IpAddress lastOfPrefix(int prefixLength) {
        if (family == IpFamily.IPV4) {
            return ipv4(lo | (~Ipv4.mask(prefixLength) & Ipv4.MAX));
        }
        return ipv6(hi | ~Ipv6.highMask(prefixLength), lo | ~Ipv6.lowMask(prefixLength));
    }

    @Override
    public int compareTo(IpAddress o) {
        int c = family.compareTo(o.family);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(hi, o.hi);
        return c != 0 ? c : Long.compareUnsigned(lo, o.lo);
    }

    /** The normal text form: a dotted quad, or IPv6 as RFC 5952 writes it ({@code 2001:db8::1}). */
    @Override
    public String toString() {
        return family == IpFamily.IPV4 ? Ipv4.format(lo) : Ipv6.format(hi, lo);
    }
}
