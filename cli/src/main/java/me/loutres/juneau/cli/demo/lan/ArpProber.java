package me.loutres.juneau.cli.demo.lan;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.JnaPacketSockets;
import me.loutres.juneau.agent.net.PacketSocket;
import me.loutres.juneau.ip.Ipv4;

/** arping, from a host of the lab: sends ARP requests for an address and collects which MACs answer. */
public final class ArpProber implements AutoCloseable {
    private final PacketSocket.Channel channel;
    private final ArpLab.Host host;

    private ArpProber(PacketSocket.Channel channel, ArpLab.Host host) {
        this.channel = channel;
        this.host = host;
    }

    public static ArpProber open(ArpLab lab, ArpLab.Host host) throws Exception {
        InterfaceInfo eth0 = new InterfaceInfo("eth0", lab.ifindex(host), host.mac(), List.of(), true, false);
        PacketSocket.Channel c = Netns.inside(host.namespace(), () -> new JnaPacketSockets().open(eth0));
        return new ArpProber(c, host);
    }

    /** Sends {@code count} requests {@code gap} apart and returns the distinct MACs that replied, in order seen. */
    public Set<String> probe(String target, int count, Duration gap) throws Exception {
        long vip = Ipv4.parse(target);
        long me = Ipv4.parse(host.ip());
        Set<String> seen = new LinkedHashSet<>();
        byte[] buf = new byte[2048];
        for (int i = 0; i < count; i++) {
            channel.send(ArpFrame.request(host.mac(), me, vip).encode());
            long deadline = System.nanoTime() + gap.toNanos();
            while (System.nanoTime() < deadline) {
                int n = channel.receive(buf, Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                if (n < 0) {
                    continue;
                }
                ArpFrame.decode(buf, n).filter(f -> f.isReply() && f.senderIp() == vip && f.targetIp() == me)
                        .ifPresent(f -> seen.add(f.senderMac().toString()));
            }
        }
        return seen;
    }


    /** One request; the MAC of the first reply for {@code target}, or null when none came within {@code timeout}. */
    public String ask(String target, Duration timeout) throws Exception {
        long vip = Ipv4.parse(target);
        long me = Ipv4.parse(host.ip());
        byte[] buf = new byte[2048];
        channel.send(ArpFrame.request(host.mac(), me, vip).encode());
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int n = channel.receive(buf, Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            if (n < 0) {
                continue;
            }
            var reply = ArpFrame.decode(buf, n).filter(f -> f.isReply() && f.senderIp() == vip && f.targetIp() == me);
            if (reply.isPresent()) {
                return reply.get().senderMac().toString();
            }
        }
        return null;
    }

    /** One request; the time until the first reply for {@code target}, or null when none came within {@code timeout}. */
    public Duration roundTrip(String target, Duration timeout) throws Exception {
        long vip = Ipv4.parse(target);
        long me = Ipv4.parse(host.ip());
        byte[] buf = new byte[2048];
        long t0 = System.nanoTime();
        channel.send(ArpFrame.request(host.mac(), me, vip).encode());
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int n = channel.receive(buf, Duration.ofMillis(Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            if (n >= 0 && ArpFrame.decode(buf, n).filter(f -> f.isReply() && f.senderIp() == vip && f.targetIp() == me)
                    .isPresent()) {
                return Duration.ofNanos(System.nanoTime() - t0);
            }
        }
        return null;
    }

    @Override
    public void close() {
        channel.close();
    }
}
