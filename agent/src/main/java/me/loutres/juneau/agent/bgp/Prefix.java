package me.loutres.juneau.agent.bgp;

import me.loutres.juneau.ip.Ipv4;

/** An IPv4 prefix: the address with its host bits clear, and its length. */
public record Prefix(long address, int length) implements Comparable<Prefix> {
    public Prefix {
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("prefix length " + length + " is not within 0-32");
        }
        address = address & mask(length);
    }

    /** The prefix of {@code length} that covers {@code address}. */
    public static Prefix covering(long address, int length) {
        return new Prefix(address, length);
    }

    private static long mask(int length) {
        return length == 0 ? 0 : (0xFFFFFFFFL << (32 - length)) & 0xFFFFFFFFL;
    }

    @Override
    public int compareTo(Prefix o) {
        int c = Long.compare(address, o.address);
        return c != 0 ? c : Integer.compare(length, o.length);
    }

    @Override
    public String toString() {
        return Ipv4.format(address) + "/" + length;
    }
}
