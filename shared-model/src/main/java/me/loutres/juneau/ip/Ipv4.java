package me.loutres.juneau.ip;

/**
 * IPv4 addresses as unsigned 32-bit values held in a {@code long}, so ranges and counts never overflow.
 */
public final class Ipv4 {
    public static final long MAX = 0xFFFF_FFFFL;

    private Ipv4() {
    }

    /**
     * Parses a strict dotted quad: four decimal octets 0-255, no leading zeros (the kube-apiserver refuses them
     * because some tools read them as octal), no surrounding whitespace.
     *
     * @throws InvalidAddressException naming the text and what is accepted
     */
    public static long parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new InvalidAddressException("\"\" is not an IPv4 address; expected a dotted quad such as 192.0.2.10");
        }
        long value = 0;
        int octets = 0;
        int i = 0;
        int n = text.length();
        while (i <= n) {
            int start = i;
            while (i < n && text.charAt(i) != '.') {
                i++;
            }
            String part = text.substring(start, i);
            if (part.isEmpty() || part.length() > 3 || !isDigits(part)) {
                throw notAnAddress(text);
            }
            if (part.length() > 1 && part.charAt(0) == '0') {
                throw new InvalidAddressException("\"" + text
                        + "\" is not an IPv4 address: octets must not have leading zeros; expected a dotted quad such as 192.0.2.10");
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                throw new InvalidAddressException("\"" + text + "\" is not an IPv4 address: octet " + octet
                        + " is above 255; expected a dotted quad such as 192.0.2.10");
            }
            value = (value << 8) | octet;
            octets++;
            i++;
            if (octets > 4) {
                throw notAnAddress(text);
            }
        }
        if (octets != 4) {
            throw notAnAddress(text);
        }
        return value;
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

    public static String format(long address) {
        if (address < 0 || address > MAX) {
            throw new IllegalArgumentException("not a 32-bit address: " + address);
        }
        return ((address >>> 24) & 0xFF) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    /** The netmask of a prefix length, e.g. 24 gives 255.255.255.0 as a value. */
    public static long mask(int prefixLength) {
        return prefixLength == 0 ? 0 : (MAX << (32 - prefixLength)) & MAX;
    }

    private static boolean isDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static InvalidAddressException notAnAddress(String text) {
        return new InvalidAddressException(
                "\"" + text + "\" is not an IPv4 address; expected a dotted quad such as 192.0.2.10");
    }
}
