package me.loutres.juneau.agent.plan;

import java.time.Duration;

/**
 * When the node agent's reconcile loop looks again although nothing told it of a change (NodeAgent). Every watch event
 * and every Lease pause starts a turn at once; the timed turn only repairs what no event reports: a failed status
 * write, an interface that appeared or changed its MAC under an owned VIP, BIRD's session states and the Secrets its
 * peers name. A node with none of that (no ARPAdvertisement for it, no BGP session or route, BIRD not running) has
 * nothing a second's look could find, so it looks every {@link #IDLE} instead: what one idle node pays in CPU is
 * mostly this loop (BENCHMARKS.md, "Node agent: what one node pays"). {@code IDLE} is well inside the liveness
 * probe's 60 s, which counts the loop's turns.
 */
public final class TurnRhythm {
    /** While the node answers, has advertisements or does BGP. */
    public static final Duration BUSY = Duration.ofSeconds(1);
    /** While it has nothing of the above: the Lease's own idle renew interval. */
    public static final Duration IDLE = Duration.ofSeconds(10);

    private TurnRhythm() {
    }

    /**
     * @param advertisements this node's ARPAdvertisements, readable or not (each has a status to keep)
     * @param answering      the node answers ARP for a VIP now
     * @param plan           the turn's plan (its BGP half: sessions, routes)
     * @param birdRunning    BIRD runs (its sessions are polled, and a plan without work stops it)
     * @return how long until the next timed turn
     */
    public static Duration next(int advertisements, boolean answering, NodePlan plan, boolean birdRunning) {
        boolean bgp = birdRunning || plan.needsBird() || !plan.sessions().isEmpty();
        return advertisements > 0 || answering || bgp ? BUSY : IDLE;
    }
}
