package me.loutres.juneau.ip;

import java.util.Optional;

/** An inclusive range of IPv4 addresses, {@code first <= last}. */
public record AddressRange(long first, long last) implements Comparable<AddressRange> {

    public AddressRange {
        if (first < 0 || last > Ipv4.MAX || first > last) {
            throw new IllegalArgumentException("bad range " + first + "-" + last);
        }
    }

    public static AddressRange single(long address) {
        return new AddressRange(address, address);
    }

    public long size() {
        return last - first + 1;
    }

    public boolean contains(long address) {
        return address >= first && address <= last;
    }

    public boolean overlaps(AddressRange other) {
        return first <= other.last && other.first <= last;
    }

    /** The addresses both ranges share, if any. */
    public Optional<AddressRange> intersection(AddressRange other) {
        long lo = Math.max(first, other.first);
        long hi = Math.min(last, other.last);
        return lo <= hi ? Optional.of(new AddressRange(lo, hi)) : Optional.empty();
    }

    @Override
    public int compareTo(AddressRange o) {
        int c = Long.compare(first, o.first);
        return c != 0 ? c : Long.compare(last, o.last);
    }

    /** {@code 10.0.0.5} for one address, {@code 10.0.0.5-10.0.0.9} otherwise. */
    @Override
    public String toString() {
        return first == last ? Ipv4.format(first) : Ipv4.format(first) + "-" + Ipv4.format(last);
    }
}
