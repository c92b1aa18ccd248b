package me.loutres.juneau.cli.ndp;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.agent.ndp.NdpFrame;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.JnaPacketSockets;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.cli.demo.lan.ArpLab;
import me.loutres.juneau.cli.demo.lan.Netns;
import me.loutres.juneau.ip.IpAddress;

/**
 * What ndisc6 does, from a host of the lab: sends Neighbor Solicitations for an address to its solicited-node group
 * and collects which MACs answer with a solicited advertisement (ArpProber's IPv6 twin).
 */
final class NdpProber implements AutoCloseable {
    private final PacketSocket.Channel channel;
    private final ArpLab.Host host;
    private final IpAddress me;

    private NdpProber(PacketSocket.Channel channel, ArpLab.Host host, IpAddress me) {
        this.channel = channel;
        this.host = host;
        this.me = me;
    }

    static NdpProber open(ArpLab lab, ArpLab.Host host, String hostIpv6) throws Exception {
        InterfaceInfo eth0 = new InterfaceInfo("eth0", lab.ifindex(host), host.mac(), List.of(), true, false);
        PacketSocket.Channel c = Netns.inside(host.namespace(), () -> new JnaPacketSockets().openNdp(eth0));
        return new NdpProber(c, host, IpAddress.parse(hostIpv6));
    }

    /** Sends {@code count} solicitations {@code gap} apart; the distinct MACs that answered, in order seen. */
    Set<String> probe(String target, int count, Duration gap) throws Exception {
        IpAddress vip = IpAddress.parse(target);
        Set<String> seen = new LinkedHashSet<>();
        byte[] buf = new byte[2048];
        for (int i = 0; i < count; i++) {
            channel.send(NdpFrame.solicitation(host.mac(), me, vip).encode());
            long deadline = System.nanoTime() + gap.toNanos();
            while (System.nanoTime() < deadline) {
                int n = channel.receive(buf, Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                if (n < 0) {
                    continue;
                }
                NdpFrame.decode(buf, n).filter(f -> f.isAdvertisement() && f.target().equals(vip)
                                && (f.flags() & NdpFrame.SOLICITED) != 0 && f.destination().equals(me))
                        .ifPresent(f -> seen.add(String.valueOf(f.linkLayer())));
            }
        }
        return seen;
    }

    @Override
    public void close() {
        channel.close();
    }
}
