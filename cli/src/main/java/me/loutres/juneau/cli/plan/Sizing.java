package me.loutres.juneau.cli.plan;

/**
 * MetalLB's sizing guidance: pools = ceil(VIPs / VIPs per node), nodes = pools × (1 + tolerated failures).
 * A VIP is answered by one node at a time, so each group of VIPs that one node can carry needs its own pool of
 * nodes, plus one spare node per failure to tolerate.
 */
public record Sizing(long vips, long vipsPerNode, long toleratedFailures, long pools, long nodes) {
    /** VIPs are IPv4 addresses: no count of them can exceed the address space. */
    public static final long MAX_VIPS = 1L << 32;

    /**
     * @throws IllegalArgumentException naming the option and the value when the input makes no sense
     */
    public static Sizing of(long vips, long vipsPerNode, long toleratedFailures) {
        checkVips(vips);
        checkVipsPerNode(vipsPerNode);
        checkToleratedFailures(toleratedFailures);
        // (vips - 1) / perNode + 1 is ceil without the overflow of (vips + perNode - 1)
        long pools = (vips - 1) / vipsPerNode + 1;
        long nodes;
        try {
            nodes = Math.multiplyExact(pools, Math.addExact(1, toleratedFailures));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("--tolerate-failures " + toleratedFailures + " with " + pools
                    + " pools needs more nodes than can be counted; use realistic numbers");
        }
        return new Sizing(vips, vipsPerNode, toleratedFailures, pools, nodes);
    }

    public static void checkVips(long vips) {
        inRange("--vips", vips, 1, MAX_VIPS, " (the IPv4 address space)");
    }

    public static void checkVipsPerNode(long vipsPerNode) {
        inRange("--vips-per-node", vipsPerNode, 1, MAX_VIPS, " (the IPv4 address space)");
    }

    public static void checkToleratedFailures(long failures) {
        if (failures < 0) {
            throw new IllegalArgumentException("--tolerate-failures must be 0 or more, got " + failures);
        }
    }

    private static void inRange(String option, long value, long min, long max, String why) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + ", got " + value);
        }
        if (value > max) {
            throw new IllegalArgumentException(option + " must be at most " + max + why + ", got " + value);
        }
    }
}
