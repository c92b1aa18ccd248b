package me.loutres.juneau.bgp;

/**
 * A BGP community attached to a network's routes: standard {@code (a,b)} (RFC 1997) or large {@code (a,b,c)} (RFC
 * 8092).
 */
public sealed interface Community {
    record Standard(int asn, int value) implements Community {
    }

    record Large(long global, long local1, long local2) implements Community {
    }
}
