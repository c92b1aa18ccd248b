package me.loutres.juneau.plan;

import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;

/**
 * The Service's ARPAdvertisement as it should be (docs/phases-and-conditions.md). The writer compares it with the
 * one that exists and writes only the difference: none → create; another node → move in place (same uid); another
 * address or network (immutable) → delete and create.
 */
public sealed interface DesiredArp {

    /** Leave whatever exists alone: another Service's, or kept while the network cannot be read. */
    record Untouched() implements DesiredArp {
    }

    /** No advertisement: the Service's own one, if any, goes. */
    record Absent() implements DesiredArp {
    }

    record Present(ARPAdvertisement advertisement) implements DesiredArp {
        public String node() {
            return advertisement.getSpec().getNodeName();
        }
    }
}
