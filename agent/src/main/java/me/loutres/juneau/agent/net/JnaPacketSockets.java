package me.loutres.juneau.agent.net;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * AF_PACKET sockets through JNA (libc {@code socket}, {@code bind}, {@code recvfrom}, {@code sendto}): a
 * {@code SOCK_RAW} socket for ethertype ARP bound to one interface index, or for IPv6 with a filter that lets only
 * Neighbor Solicitations and Advertisements through (NDP, docs/ndp.md). Needs CAP_NET_RAW. Frames the host itself
 * sent ({@code PACKET_OUTGOING}) are skipped, so the agent never answers its own gratuitous ARP.
 */
public final class JnaPacketSockets implements PacketSocket {
    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVTIMEO = 20;
    private static final int ETH_P_ARP = 0x0806;
    private static final int PACKET_OUTGOING = 4;
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;
    private static final int SOCKADDR_LL = 20;
    private static final int ETH_P_IPV6 = 0x86DD;
    private static final int SOL_PACKET = 263;
    private static final int PACKET_ADD_MEMBERSHIP = 1;
    private static final int PACKET_DROP_MEMBERSHIP = 2;
    private static final int PACKET_MR_MULTICAST = 0;
    private static final int SO_ATTACH_FILTER = 26;
    /**
     * Classic BPF: IPv6, next header ICMPv6 (no extension headers), ICMPv6 type 135 or 136; everything else stays in
     * the kernel, so a node's IPv6 data traffic is never copied to the agent.
     */
    private static final int[][] NDP_FILTER = {
            {0x28, 0, 0, 12}, // ldh [12]: ethertype
            {0x15, 0, 6, ETH_P_IPV6},
            {0x30, 0, 0, 20}, // ldb [20]: next header
            {0x15, 0, 4, 58},
            {0x30, 0, 0, 54}, // ldb [54]: ICMPv6 type
            {0x15, 1, 0, 135},
            {0x15, 0, 1, 136},
            {0x06, 0, 0, 0xffff}, // accept
            {0x06, 0, 0, 0}, // drop
    };

    /** The libc calls used, declared as JNA maps them; errno comes back as {@link LastErrorException}. */
    interface LibC extends Library {
        int socket(int domain, int type, int protocol) throws LastErrorException;

        int bind(int fd, Pointer address, int length) throws LastErrorException;

        int setsockopt(int fd, int level, int option, Pointer value, int length) throws LastErrorException;

        long recvfrom(int fd, Pointer buf, long length, int flags, Pointer address, Pointer addressLength)
                throws LastErrorException;

        long sendto(int fd, Pointer buf, long length, int flags, Pointer address, int addressLength)
                throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private static volatile LibC libc;

    private static LibC libc() throws IOException {
        LibC l = libc;
        if (l == null) {
            try {
                l = Native.load("c", LibC.class);
            } catch (UnsatisfiedLinkError e) {
                throw new IOException("cannot load libc through JNA: " + e.getMessage(), e);
            }
            libc = l;
        }
        return l;
    }

    @Override
    public Channel open(InterfaceInfo iface) throws IOException {
        return open(iface, ETH_P_ARP);
    }

    @Override
    public Channel openNdp(InterfaceInfo iface) throws IOException {
        return open(iface, ETH_P_IPV6);
    }

    private Channel open(InterfaceInfo iface, int protocol) throws IOException {
        LibC c = libc();
        int fd;
        try {
            // NDP: protocol 0 receives nothing until bind, so no frame of another interface or kind is queued
            // before the filter is on
            fd = c.socket(AF_PACKET, SOCK_RAW, protocol == ETH_P_IPV6 ? 0 : htons(protocol));
        } catch (LastErrorException e) {
            throw new IOException("cannot open an AF_PACKET socket for " + iface.name() + ": " + describe(e)
                    + (e.getErrorCode() == 1 ? " (the agent needs capability NET_RAW)" : ""), e);
        }
        try {
            if (protocol == ETH_P_IPV6) {
                Memory program = new Memory(8L * NDP_FILTER.length);
                for (int i = 0; i < NDP_FILTER.length; i++) {
                    program.setShort(8L * i, (short) NDP_FILTER[i][0]);
                    program.setByte(8L * i + 2, (byte) NDP_FILTER[i][1]);
                    program.setByte(8L * i + 3, (byte) NDP_FILTER[i][2]);
                    program.setInt(8L * i + 4, NDP_FILTER[i][3]);
                }
                Memory fprog = new Memory(16);
                fprog.clear();
                fprog.setShort(0, (short) NDP_FILTER.length);
                fprog.setPointer(8, program);
                c.setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, fprog, 16);
            }
            Memory addr = sockaddr(iface.index(), null, protocol);
            c.bind(fd, addr, SOCKADDR_LL);
            Memory tv = new Memory(16);
            tv.setLong(0, 0);
            tv.setLong(8, 200_000); // 200 ms: receive() loops on it, so close() is noticed promptly
            c.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, tv, 16);
        } catch (LastErrorException e) {
            c.close(fd);
            throw new IOException("cannot bind the AF_PACKET socket to " + iface.name() + " (index " + iface.index()
                    + "): " + describe(e), e);
        }
        return new JnaChannel(c, fd, iface, protocol);
    }

    private static Memory sockaddr(int ifindex, byte[] mac, int protocol) {
        Memory m = new Memory(SOCKADDR_LL);
        m.clear();
        m.setShort(0, (short) AF_PACKET);
        m.setShort(2, (short) htons(protocol));
        m.setInt(4, ifindex);
        if (mac != null) {
            m.setByte(11, (byte) 6);
            m.write(12, mac, 0, 6);
        }
        return m;
    }

    /** Network byte order of a 16-bit value as a native short, which is how sll_protocol is stored. */
    private static int htons(int v) {
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? v : ((v & 0xff) << 8) | ((v >>> 8) & 0xff);
    }

    private static String describe(LastErrorException e) {
        return "errno " + e.getErrorCode() + " (" + e.getMessage() + ")";
    }

    private static final class JnaChannel implements Channel {
        private final LibC c;
        private final int fd;
        private final InterfaceInfo iface;
        private final AtomicBoolean closed = new AtomicBoolean();
        private final Memory in = new Memory(2048);
        private final Memory from = new Memory(SOCKADDR_LL);
        private final Memory fromLength = new Memory(4);
        private final Memory out = new Memory(2048);
        private final Memory to;

        JnaChannel(LibC c, int fd, InterfaceInfo iface, int protocol) {
            this.c = c;
            this.fd = fd;
            this.iface = iface;
            this.to = sockaddr(iface.index(), null, protocol);
        }

        @Override
        public void join(me.loutres.juneau.agent.arp.MacAddress group) throws IOException {
            membership(PACKET_ADD_MEMBERSHIP, group);
        }

        @Override
        public void leave(me.loutres.juneau.agent.arp.MacAddress group) throws IOException {
            membership(PACKET_DROP_MEMBERSHIP, group);
        }

        /** struct packet_mreq: int ifindex, unsigned short type, unsigned short alen, unsigned char address[8]. */
        private void membership(int option, me.loutres.juneau.agent.arp.MacAddress group) throws IOException {
            Memory mreq = new Memory(16);
            mreq.clear();
            mreq.setInt(0, iface.index());
            mreq.setShort(4, (short) PACKET_MR_MULTICAST);
            mreq.setShort(6, (short) 6);
            mreq.write(8, group.bytes(), 0, 6);
            try {
                c.setsockopt(fd, SOL_PACKET, option, mreq, 16);
            } catch (LastErrorException e) {
                throw new IOException((option == PACKET_ADD_MEMBERSHIP ? "cannot join " : "cannot leave ") + group
                        + " on " + iface.name() + ": " + describe(e), e);
            }
        }

        @Override
        public int receive(byte[] buf, Duration timeout) throws IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!closed.get()) {
                long n;
                try {
                    fromLength.setInt(0, SOCKADDR_LL);
                    n = c.recvfrom(fd, in, in.size(), 0, from, fromLength);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() == EAGAIN || e.getErrorCode() == EINTR) {
                        if (System.nanoTime() >= deadline) {
                            return -1;
                        }
                        continue;
                    }
                    throw new IOException("receive on " + iface.name() + " failed: " + describe(e), e);
                }
                if ((from.getByte(10) & 0xff) == PACKET_OUTGOING) {
                    continue;
                }
                int len = (int) Math.min(n, buf.length);
                in.read(0, buf, 0, len);
                return len;
            }
            throw new IOException("the socket on " + iface.name() + " is closed");
        }

        @Override
        public void send(byte[] frame) throws IOException {
            if (closed.get()) {
                throw new IOException("the socket on " + iface.name() + " is closed");
            }
            synchronized (out) {
                out.write(0, frame, 0, frame.length);
                try {
                    c.sendto(fd, out, frame.length, 0, to, SOCKADDR_LL);
                } catch (LastErrorException e) {
                    throw new IOException("send on " + iface.name() + " failed: " + describe(e), e);
                }
            }
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                try {
                    c.close(fd);
                } catch (LastErrorException ignored) {
                    // the descriptor is gone either way
                }
            }
        }
    }
}
