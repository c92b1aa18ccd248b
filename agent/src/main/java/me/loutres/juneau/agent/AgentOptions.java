package me.loutres.juneau.agent;

import java.time.Duration;
import java.util.List;
import me.loutres.juneau.agent.arp.AnnounceSchedule;
import me.loutres.juneau.agent.kube.LeaseKeeper;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Everything the agent is told at start.
 *
 * @param node          the Node this agent runs on (its ARPAdvertisements carry it in a label and spec.nodeName)
 * @param interfaces    {@code --interface} candidates, empty for "the interface whose prefix contains the VIP"
 * @param namespace     namespace of the liveness Lease
 * @param holder        holderIdentity written in the Lease
 * @param metricsBind   address of /healthz, /readyz and /metrics
 * @param metricsPort   its port, 0 for any, -1 for none
 * @param announce      gratuitous ARP schedule
 * @param lease         Lease renew intervals and durations
 * @param stuckAfter    liveness fails when the reconcile loop has not turned for this long
 */
public record AgentOptions(String node, List<String> interfaces, String namespace, String holder, String metricsBind,
                           int metricsPort, AnnounceSchedule announce, LeaseKeeper.Timing lease, Duration stuckAfter) {
    public AgentOptions {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("the node name is missing; pass --node NAME or set NODE_NAME"
                    + " (the DaemonSet sets it from spec.nodeName)");
        }
        interfaces = List.copyOf(interfaces == null ? List.of() : interfaces);
    }

    public static AgentOptions defaults(String node) {
        return new AgentOptions(node, List.of(), JuneauConstants.SYSTEM_NAMESPACE, node, "0.0.0.0", 7473,
                AnnounceSchedule.DEFAULT, LeaseKeeper.Timing.DEFAULT, Duration.ofSeconds(60));
    }

    public AgentOptions withInterfaces(List<String> v) {
        return new AgentOptions(node, v, namespace, holder, metricsBind, metricsPort, announce, lease, stuckAfter);
    }

    public AgentOptions withNamespace(String v) {
        return new AgentOptions(node, interfaces, v, holder, metricsBind, metricsPort, announce, lease, stuckAfter);
    }

    public AgentOptions withHolder(String v) {
        return new AgentOptions(node, interfaces, namespace, v, metricsBind, metricsPort, announce, lease, stuckAfter);
    }

    public AgentOptions withMetrics(String bind, int port) {
        return new AgentOptions(node, interfaces, namespace, holder, bind, port, announce, lease, stuckAfter);
    }

    public AgentOptions withAnnounce(AnnounceSchedule v) {
        return new AgentOptions(node, interfaces, namespace, holder, metricsBind, metricsPort, v, lease, stuckAfter);
    }

    public AgentOptions withLease(LeaseKeeper.Timing v) {
        return new AgentOptions(node, interfaces, namespace, holder, metricsBind, metricsPort, announce, v, stuckAfter);
    }
}
