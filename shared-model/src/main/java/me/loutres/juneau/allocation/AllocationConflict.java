package me.loutres.juneau.allocation;

/**
 * A record {@link Allocator#restore} refused because it contradicts one already held: the same address for two
 * owners, or a second address for one owner. The controller logs it; the refused Service gets re-examined.
 *
 * @param kept    the record that stays held
 * @param refused the record that was not restored
 */
public record AllocationConflict(AllocationRecord kept, AllocationRecord refused) {

    @Override
    public String toString() {
        return refused.owner().equals(kept.owner())
                ? "Service " + refused.owner() + " claims " + me.loutres.juneau.ip.Ipv4.format(refused.address())
                        + " but already holds " + me.loutres.juneau.ip.Ipv4.format(kept.address()) + "; kept the latter"
                : "address " + me.loutres.juneau.ip.Ipv4.format(refused.address()) + " is claimed by Service "
                        + kept.owner() + " and Service " + refused.owner() + "; kept it for " + kept.owner();
    }
}
