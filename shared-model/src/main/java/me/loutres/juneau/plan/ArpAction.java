package me.loutres.juneau.plan;

import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;

/** What happens to the Service's ARPAdvertisement (docs/phases-and-conditions.md). */
public sealed interface ArpAction {

    /** The node that answers ARP after the action, or null. */
    String node();

    /** No advertisement, none wanted (bgp, no VIP, nobody to announce). */
    record None() implements ArpAction {
        @Override
        public String node() {
            return null;
        }
    }

    /** The advertisement is as it should be. */
    record Keep(String node) implements ArpAction {
    }

    record Create(ARPAdvertisement created) implements ArpAction {
        @Override
        public String node() {
            return created.getSpec().getNodeName();
        }
    }

    /**
     * Only {@code spec.nodeName} (and its label) changes, in place: same object, same uid. Also, with the node
     * unchanged, how an advertisement written before the Service uid label gets it (docs/api-reference.md).
     */
    record Move(ARPAdvertisement existing, String node) implements ArpAction {
    }

    /** Nobody may answer any more (or a left-over of a bgp network / a released VIP). */
    record Delete(ARPAdvertisement existing) implements ArpAction {
        @Override
        public String node() {
            return null;
        }
    }

    /** Address and network are immutable: an advertisement left from another VIP is deleted, then a new one made. */
    record Replace(ARPAdvertisement stale, ARPAdvertisement created) implements ArpAction {
        @Override
        public String node() {
            return created.getSpec().getNodeName();
        }
    }

    /** The name is taken by another Service's advertisement: never touched, reported. */
    record Conflict(String message) implements ArpAction {
        @Override
        public String node() {
            return null;
        }
    }
}
