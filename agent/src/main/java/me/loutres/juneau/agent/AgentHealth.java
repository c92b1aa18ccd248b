package me.loutres.juneau.agent;

import java.time.Duration;
import me.loutres.juneau.agent.plan.TurnRhythm;

/**
 * Whether the agent is alive (docs/operations.md, probes): liveness fails, and the kubelet restarts the agent, only
 * when something is stuck. An API server outage alone is not: a restarted agent could not list what it owns and
 * would stop answering it. Pure: the facts in, a one-line problem or null out.
 *
 * @param arpFailure         what broke in the ARP receive threads, or null
 * @param runtimeFailure     why the reconcile runtime stopped, or null
 * @param watchGone          the ARPAdvertisement watch gave up for good
 * @param nowMillis          the clock now
 * @param notWatchingSince   since when the watch has been down (0: it watches)
 * @param leaseRenewedMillis the last successful Lease renewal (the API server answered then)
 * @param heartbeatMillis    the reconcile loop's last turn (it may sleep {@link TurnRhythm#IDLE} on top)
 * @param leaseHeartbeat     the Lease loop's last turn
 * @param stuckAfter         how long a loop may stand still
 * @param leaseIdleInterval  the Lease loop's longest sleep
 */
record AgentHealth(String arpFailure, String runtimeFailure, boolean watchGone, long nowMillis, long notWatchingSince,
                   long leaseRenewedMillis, long heartbeatMillis, long leaseHeartbeat, Duration stuckAfter,
                   Duration leaseIdleInterval) {

    /** Null when healthy, else what is stuck. */
    String problem() {
        if (arpFailure != null) {
            return arpFailure;
        }
        if (runtimeFailure != null) {
            return "the reconcile runtime stopped: " + runtimeFailure;
        }
        if (watchGone) {
            return "the ARPAdvertisement watch stopped for good";
        }
        long stuck = stuckAfter.toMillis();
        long down = notWatchingSince;
        if (down != 0 && nowMillis - down > stuck && leaseRenewedMillis - down > stuck / 2) {
            return "the ARPAdvertisement watch has been down for " + (nowMillis - down) / 1000
                    + " s although the API server answers the Lease renewals";
        }
        // an idle node's loop sleeps its idle rhythm between turns (TurnRhythm), as the Lease loop its idle interval
        if (nowMillis - heartbeatMillis > stuck + TurnRhythm.IDLE.toMillis()) {
            return "the reconcile loop has not run for " + (nowMillis - heartbeatMillis) / 1000 + " s";
        }
        if (nowMillis - leaseHeartbeat > stuck + leaseIdleInterval.toMillis()) {
            return "the Lease loop has not run for " + (nowMillis - leaseHeartbeat) / 1000 + " s";
        }
        return null;
    }
}
