package me.loutres.juneau.agent.testing;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import me.loutres.juneau.agent.arp.ArpFrame;
import me.loutres.juneau.agent.net.InterfaceInfo;
import me.loutres.juneau.agent.net.PacketSocket;

/** A wire per interface in memory: tests inject frames and read what the agent sent. No privileges needed. */
public final class FakeWire implements PacketSocket {
    private final Map<String, FakeChannel> channels = new ConcurrentHashMap<>();
    private final Set<String> refused = new HashSet<>();
    private final List<String> opened = new ArrayList<>();

    /** Opening a channel on this interface fails as if CAP_NET_RAW were missing. */
    public synchronized void refuse(String iface) {
        refused.add(iface);
    }

    @Override
    public synchronized Channel open(InterfaceInfo iface) throws IOException {
        if (refused.contains(iface.name())) {
            throw new IOException("cannot open an AF_PACKET socket for " + iface.name()
                    + ": errno 1 (Operation not permitted) (the agent needs capability NET_RAW)");
        }
        FakeChannel c = new FakeChannel();
        channels.put(iface.name(), c);
        opened.add(iface.name());
        return c;
    }

    /** The NDP channel of an interface is a second channel, keyed {@code <iface>#ndp}. */
    @Override
    public synchronized Channel openNdp(InterfaceInfo iface) throws IOException {
        if (refused.contains(iface.name())) {
            throw new IOException("cannot open an AF_PACKET socket for " + iface.name()
                    + ": errno 1 (Operation not permitted) (the agent needs capability NET_RAW)");
        }
        FakeChannel c = new FakeChannel();
        channels.put(iface.name() + "#ndp", c);
        opened.add(iface.name() + "#ndp");
        return c;
    }

    public void injectNdp(String iface, me.loutres.juneau.agent.ndp.NdpFrame frame) {
        channels.get(iface + "#ndp").in.add(frame.encode());
    }

    /** NS/NA frames sent on the interface so far, decoded. */
    public List<me.loutres.juneau.agent.ndp.NdpFrame> sentNdp(String iface) {
        FakeChannel c = channels.get(iface + "#ndp");
        if (c == null) {
            return List.of();
        }
        synchronized (c.sent) {
            return c.sent.stream().map(b -> me.loutres.juneau.agent.ndp.NdpFrame.decode(b, b.length).orElseThrow())
                    .toList();
        }
    }

    /** The multicast groups the NDP channel of the interface is joined to now. */
    public Set<me.loutres.juneau.agent.arp.MacAddress> groups(String iface) {
        FakeChannel c = channels.get(iface + "#ndp");
        return c == null ? Set.of() : Set.copyOf(c.groups);
    }

    public synchronized List<String> opened() {
        return List.copyOf(opened);
    }

    public boolean isOpen(String iface) {
        FakeChannel c = channels.get(iface);
        return c != null && !c.closed;
    }

    public void inject(String iface, ArpFrame frame) {
        channels.get(iface).in.add(frame.encode());
    }

    /**
     * Frames sent on the interface so far, decoded: answers and gratuitous ARP. The ARP probes before a first
     * announcement say nothing about where an address is, and are left out here: see {@link #probes}.
     */
    public List<ArpFrame> sent(String iface) {
        return all(iface).stream().filter(f -> !f.isProbe()).toList();
    }

    /** The ARP probes (sender IP 0.0.0.0) sent on the interface so far. */
    public List<ArpFrame> probes(String iface) {
        return all(iface).stream().filter(ArpFrame::isProbe).toList();
    }

    private List<ArpFrame> all(String iface) {
        FakeChannel c = channels.get(iface);
        if (c == null) {
            return List.of();
        }
        synchronized (c.sent) {
            return c.sent.stream().map(b -> ArpFrame.decode(b, b.length).orElseThrow()).toList();
        }
    }

    /**
     * Whether the agent replies on {@code iface} to an ARP request for {@code ip} from the given client now ("no"
     * after 2 s of silence).
     */
    public boolean answers(String iface, me.loutres.juneau.agent.arp.MacAddress clientMac, long clientIp, long ip)
            throws InterruptedException {
        int before = sent(iface).size();
        inject(iface, ArpFrame.request(clientMac, clientIp, ip));
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            List<ArpFrame> s = sent(iface);
            if (s.subList(before, s.size()).stream().anyMatch(f -> f.isReply() && f.senderIp() == ip
                    && f.ethernetDestination().equals(clientMac))) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    /** Waits until at least {@code n} frames were sent on the interface (the receive thread is asynchronous). */
    public List<ArpFrame> awaitSent(String iface, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            List<ArpFrame> s = sent(iface);
            if (s.size() >= n) {
                return s;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("expected " + n + " frames on " + iface + ", got " + sent(iface));
    }

    private static final class FakeChannel implements Channel {
        final LinkedBlockingQueue<byte[]> in = new LinkedBlockingQueue<>();
        final List<byte[]> sent = new ArrayList<>();
        final Set<me.loutres.juneau.agent.arp.MacAddress> groups = ConcurrentHashMap.newKeySet();
        volatile boolean closed;

        @Override
        public void join(me.loutres.juneau.agent.arp.MacAddress group) {
            groups.add(group);
        }

        @Override
        public void leave(me.loutres.juneau.agent.arp.MacAddress group) {
            groups.remove(group);
        }

        @Override
        public int receive(byte[] buf, Duration timeout) throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            try {
                byte[] f = in.poll(Math.min(timeout.toMillis(), 50), TimeUnit.MILLISECONDS);
                if (f == null) {
                    return -1;
                }
                System.arraycopy(f, 0, buf, 0, f.length);
                return f.length;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }

        @Override
        public void send(byte[] frame) throws IOException {
            if (closed) {
                throw new IOException("closed");
            }
            synchronized (sent) {
                sent.add(frame.clone());
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
