package me.loutres.juneau.ip;

/**
 * IPv6 text: parsing every RFC 4291 form (full, {@code ::}-compressed, a dotted-quad tail; hex digits of either
 * case), formatting as RFC 5952 says (lower case, no leading zeros, the longest run of two or more zero groups as
 * {@code ::}), and the masks of a prefix length over the two 64-bit halves.
 */
public final class Ipv6 {
    static final String ACCEPTED = "expected an IPv6 address such as 2001:db8::10";

    private Ipv6() {
    }

    /**
     * Parses an IPv6 address; no surrounding whitespace, no brackets, no zone id.
     *
     * @throws InvalidAddressException quoting the text and saying what is accepted
     */
    public static IpAddress parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidAddressException("\"\" is not an IPv6 address; " + ACCEPTED);
        }
        if (text.indexOf('%') >= 0) {
            throw zoneId(text);
        }
        if (text.length() > 45) {
            throw bad(text);
        }
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            throw new InvalidAddressException("\"" + text + "\" is not an IPv6 address: \"::\" may appear only once; "
                    + ACCEPTED);
        }
        int[] groups = new int[8];
        int count;
        if (gap < 0) {
            count = readGroups(text, text, groups, 0);
            if (count != 8) {
                throw bad(text);
            }
        } else {
            int[] head = new int[8];
            int[] tail = new int[8];
            int nHead = gap == 0 ? 0 : readGroups(text, text.substring(0, gap), head, 0);
            String tailText = text.substring(gap + 2);
            int nTail = tailText.isEmpty() ? 0 : readGroups(text, tailText, tail, 0);
            if (nHead + nTail > 7) {
                throw bad(text);
            }
            System.arraycopy(head, 0, groups, 0, nHead);
            System.arraycopy(tail, 0, groups, 8 - nTail, nTail);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 4; i++) {
            hi = (hi << 16) | groups[i];
            lo = (lo << 16) | groups[i + 4];
        }
        return IpAddress.ipv6(hi, lo);
    }

    /** Reads colon-separated groups (the last may be a dotted quad, worth two); returns how many groups it filled. */
    private static int readGroups(String whole, String part, int[] into, int at) {
        int n = at;
        int start = 0;
        while (true) {
            int colon = part.indexOf(':', start);
            String g = colon < 0 ? part.substring(start) : part.substring(start, colon);
            if (colon < 0 && g.indexOf('.') >= 0) {
                if (n > 6 || !whole.endsWith(g)) {
                    throw bad(whole);
                }
                long v4;
                try {
                    v4 = Ipv4.parse(g);
                } catch (InvalidAddressException e) {
                    throw new InvalidAddressException("\"" + whole + "\" is not an IPv6 address: its IPv4 part "
                            + e.getMessage() + "; " + ACCEPTED);
                }
                into[n++] = (int) (v4 >>> 16);
                into[n++] = (int) (v4 & 0xFFFF);
                return n;
            }
            if (g.isEmpty() || g.length() > 4 || n >= 8) {
                throw bad(whole);
            }
            int v = 0;
            for (int i = 0; i < g.length(); i++) {
                int d = Character.digit(g.charAt(i), 16);
                if (d < 0) {
                    throw bad(whole);
                }
                v = (v << 4) | d;
            }
            into[n++] = v;
            if (colon < 0) {
                return n;
            }
            start = colon + 1;
        }
    }

    /** RFC 5952 text of the address. */
    public static String format(long hi, long lo) {
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) ((hi >>> (48 - 16 * i)) & 0xFFFF);
            g[i + 4] = (int) ((lo >>> (48 - 16 * i)) & 0xFFFF);
        }
        if (hi == 0 && (lo >>> 32) == 0xFFFFL) {
            return "::ffff:" + Ipv4.format(lo & Ipv4.MAX); // RFC 5952 section 5: IPv4-mapped keeps the dotted quad
        }
        int bestStart = -1;
        int bestLen = 1; // a single zero group is never compressed
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** The mask of a prefix length (0-128) over the high 64 bits. */
    static long highMask(int prefixLength) {
        return prefixLength == 0 ? 0 : prefixLength >= 64 ? -1L : -1L << (64 - prefixLength);
    }

    /** The mask of a prefix length (0-128) over the low 64 bits. */
    static long lowMask(int prefixLength) {
        return prefixLength <= 64 ? 0 : prefixLength == 128 ? -1L : -1L << (128 - prefixLength);
    }

    /** True for {@code ::ffff:a.b.c.d}, an IPv4 address written as IPv6: as a VIP it is the IPv4 one. */
    public static boolean isIpv4Mapped(IpAddress a) {
        return a.family() == IpFamily.IPV6 && a.hi() == 0 && (a.lo() >>> 32) == 0xFFFFL;
    }

    /** True for the deprecated IPv4-compatible {@code ::a.b.c.d} (RFC 4291 2.5.5.1), other than {@code ::} and {@code ::1}. */
    public static boolean isIpv4Compatible(IpAddress a) {
        return a.family() == IpFamily.IPV6 && a.hi() == 0 && (a.lo() >>> 32) == 0 && Long.compareUnsigned(a.lo(), 1) > 0;
    }

    static InvalidAddressException zoneId(String text) {
        return new InvalidAddressException("\"" + text + "\" has a zone id (" + text.substring(text.indexOf('%'))
                + "), which only link-local addresses use and a VIP never has; " + ACCEPTED + ", without %zone");
    }

    private static InvalidAddressException bad(String text) {
        return new InvalidAddressException("\"" + text + "\" is not an IPv6 address; " + ACCEPTED);
    }
}
