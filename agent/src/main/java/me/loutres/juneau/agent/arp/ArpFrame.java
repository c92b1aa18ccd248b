package me.loutres.juneau.agent.arp;

import java.util.Optional;
import me.loutres.juneau.ip.Ipv4;

/**
 * One Ethernet frame carrying an ARP packet for IPv4 over Ethernet (RFC 826), as a raw AF_PACKET socket sees it:
 * the 14-byte Ethernet header, then the 28-byte ARP body. Addresses are kept as the long form {@link Ipv4} uses.
 *
 * @param ethernetDestination where the frame goes (broadcast for requests and gratuitous ARP)
 * @param ethernetSource      who put it on the wire
 * @param operation           {@link #REQUEST} or {@link #REPLY}
 * @param senderMac           sha
 * @param senderIp            spa
 * @param targetMac           tha (zero in an ordinary request)
 * @param targetIp            tpa
 */
public record ArpFrame(MacAddress ethernetDestination, MacAddress ethernetSource, int operation, MacAddress senderMac,
                       long senderIp, MacAddress targetMac, long targetIp) {
    public static final int REQUEST = 1;
    public static final int REPLY = 2;
    public static final int ETHERTYPE_ARP = 0x0806;
    /** Ethernet's minimum frame without the FCS; shorter frames are padded with zeros. */
    public static final int MIN_FRAME = 60;
    private static final int HEADER = 14;
    private static final int BODY = 28;

    /**
     * Reads a frame; empty when it is not an IPv4-over-Ethernet ARP request or reply (other protocols, truncated
     * frames, other hardware types): the responder ignores those rather than guessing.
     */
    public static Optional<ArpFrame> decode(byte[] buf, int length) {
        if (buf == null || length < HEADER + BODY || length > buf.length) {
            return Optional.empty();
        }
        if (u16(buf, 12) != ETHERTYPE_ARP) {
            return Optional.empty();
        }
        int a = HEADER;
        if (u16(buf, a) != 1 || u16(buf, a + 2) != 0x0800 || (buf[a + 4] & 0xff) != 6 || (buf[a + 5] & 0xff) != 4) {
            return Optional.empty();
        }
        int op = u16(buf, a + 6);
        if (op != REQUEST && op != REPLY) {
            return Optional.empty();
        }
        return Optional.of(new ArpFrame(MacAddress.read(buf, 0), MacAddress.read(buf, 6), op,
                MacAddress.read(buf, a + 8), u32(buf, a + 14), MacAddress.read(buf, a + 18), u32(buf, a + 24)));
    }

    /** The frame as bytes, padded to {@link #MIN_FRAME}. */
    public byte[] encode() {
        byte[] b = new byte[MIN_FRAME];
        ethernetDestination.write(b, 0);
        ethernetSource.write(b, 6);
        put16(b, 12, ETHERTYPE_ARP);
        int a = HEADER;
        put16(b, a, 1);
        put16(b, a + 2, 0x0800);
        b[a + 4] = 6;
        b[a + 5] = 4;
        put16(b, a + 6, operation);
        senderMac.write(b, a + 8);
        put32(b, a + 14, senderIp);
        targetMac.write(b, a + 18);
        put32(b, a + 24, targetIp);
        return b;
    }

    public boolean isRequest() {
        return operation == REQUEST;
    }

    public boolean isReply() {
        return operation == REPLY;
    }

    /** The answer to this request from {@code mac} for {@code tpa}: unicast back to whoever asked. */
    public ArpFrame replyFrom(MacAddress mac) {
        return new ArpFrame(senderMac, mac, REPLY, mac, targetIp, senderMac, senderIp);
    }

    /** An ARP request from {@code mac}/{@code ip} asking who has {@code target}, broadcast (what arping sends). */
    public static ArpFrame request(MacAddress mac, long ip, long target) {
        return new ArpFrame(MacAddress.BROADCAST, mac, REQUEST, mac, ip, MacAddress.ZERO, target);
    }

    /**
     * An ARP probe (RFC 5227, 2.1.1): "who has {@code target}", sender IP 0.0.0.0 so that no neighbour cache learns
     * anything from it, broadcast, tha zero. A host holding {@code target} answers it; nobody else does.
     */
    public static ArpFrame probe(MacAddress mac, long target) {
        return new ArpFrame(MacAddress.BROADCAST, mac, REQUEST, mac, 0L, MacAddress.ZERO, target);
    }

    /** Whether this is an ARP probe (a request with sender IP 0.0.0.0). */
    public boolean isProbe() {
        return isRequest() && senderIp == 0L;
    }

    /**
     * Gratuitous ARP, request form: "who has VIP, tell VIP", broadcast, tha zero. Linux neighbour caches take it as
     * gratuitous (spa == tpa) and replace a cached MAC at once, whatever the lock time.
     */
    public static ArpFrame gratuitousRequest(MacAddress mac, long vip) {
        return new ArpFrame(MacAddress.BROADCAST, mac, REQUEST, mac, vip, MacAddress.ZERO, vip);
    }

    /**
     * Gratuitous ARP, reply form, broadcast. tha repeats sha: Linux counts a reply as gratuitous only then, and some
     * routers listen only to replies.
     */
    public static ArpFrame gratuitousReply(MacAddress mac, long vip) {
        return new ArpFrame(MacAddress.BROADCAST, mac, REPLY, mac, vip, mac, vip);
    }

    @Override
    public String toString() {
        return (isRequest() ? "who-has " + Ipv4.format(targetIp) + " tell " + Ipv4.format(senderIp)
                : Ipv4.format(senderIp) + " is-at " + senderMac) + " (" + ethernetSource + " > " + ethernetDestination + ")";
    }

    private static int u16(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    private static long u32(byte[] b, int o) {
        return ((long) (b[o] & 0xff) << 24) | (b[o + 1] & 0xff) << 16 | (b[o + 2] & 0xff) << 8 | (b[o + 3] & 0xff);
    }

    private static void put16(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 8);
        b[o + 1] = (byte) v;
    }

    private static void put32(byte[] b, int o, long v) {
        b[o] = (byte) (v >>> 24);
        b[o + 1] = (byte) (v >>> 16);
        b[o + 2] = (byte) (v >>> 8);
        b[o + 3] = (byte) v;
    }
}
