package me.loutres.juneau.cli.plan;

/**
 * MetalLB's sizing guidance (SPEC §5): pools = ceil(VIPs / VIPs per node), nodes = pools × (1 + tolerated failures).
 * A VIP is answered by one node at a time, so each group of VIPs that one node can carry needs its own pool of
 * nodes, plus one spare node per failure to tolerate.
 */
public record Sizing(long vips, long vipsPerNode, long toleratedFailures, long pools, long nodes) {

    /**
     * @throws IllegalArgumentException naming the option and the value when the input makes no sense
     */
    public static Sizing of(long vips, long vipsPerNode, long toleratedFailures) {
        if (vips < 1) {
            throw new IllegalArgumentException("--vips must be at least 1, got " + vips);
        }
        if (vipsPerNode < 1) {
            throw new IllegalArgumentException("--vips-per-node must be at least 1, got " + vipsPerNode);
        }
        if (toleratedFailures < 0) {
            throw new IllegalArgumentException("--tolerate-failures must be 0 or more, got " + toleratedFailures);
        }
        long pools = (vips + vipsPerNode - 1) / vipsPerNode;
        long nodes;
        try {
            nodes = Math.multiplyExact(pools, Math.addExact(1, toleratedFailures));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("--tolerate-failures " + toleratedFailures + " with " + pools
                    + " pools needs more nodes than can be counted; use realistic numbers");
        }
        return new Sizing(vips, vipsPerNode, toleratedFailures, pools, nodes);
    }
}
