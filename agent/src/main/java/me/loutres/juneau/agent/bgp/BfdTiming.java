package me.loutres.juneau.agent.bgp;

/**
 * A BFDProfile as BIRD needs it.
 *
 * @param receiveMs  minimum receive interval, milliseconds
 * @param transmitMs minimum transmit interval, milliseconds
 * @param multiplier detect multiplier
 * @param passive    wait for the peer's first packet
 */
public record BfdTiming(int receiveMs, int transmitMs, int multiplier, boolean passive) {
}
