package me.loutres.juneau.agent.ndp;

import java.util.Optional;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;

/**
 * One Ethernet frame carrying an ICMPv6 Neighbor Solicitation or Neighbor Advertisement (RFC 4861 §4.3, §4.4), as a
 * raw AF_PACKET socket sees it: the 14-byte Ethernet header, the 40-byte IPv6 header (next header ICMPv6, no
 * extension headers), then the 24-byte message and at most one link-layer address option. What NDP is to IPv6 is what
 * {@link me.loutres.juneau.agent.arp.ArpFrame} is to IPv4 (docs/ndp.md).
 *
 * @param ethernetDestination where the frame goes
 * @param ethernetSource      who put it on the wire
 * @param source              the IPv6 source ({@code ::} in a Duplicate Address Detection probe)
 * @param destination         the IPv6 destination
 * @param hopLimit            255 in every valid NDP message (RFC 4861 §7.1.1: it never crossed a router)
 * @param type                {@link #SOLICITATION} or {@link #ADVERTISEMENT}
 * @param flags               an advertisement's R, S, O bits ({@link #ROUTER}, {@link #SOLICITED}, {@link #OVERRIDE});
 *                            0 for a solicitation
 * @param target              the address asked about, or advertised
 * @param linkLayer           the source link-layer option of a solicitation, the target link-layer option of an
 *                            advertisement; null when absent
 */
public record NdpFrame(MacAddress ethernetDestination, MacAddress ethernetSource, IpAddress source,
                       IpAddress destination, int hopLimit, int type, int flags, IpAddress target,
                       MacAddress linkLayer) {
    public static final int SOLICITATION = 135;
    public static final int ADVERTISEMENT = 136;
    public static final int ROUTER = 0x80;
    public static final int SOLICITED = 0x40;
    public static final int OVERRIDE = 0x20;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int NEXT_HEADER_ICMPV6 = 58;
    /** The all-nodes multicast address ff02::1, where unsolicited advertisements go. */
    public static final IpAddress ALL_NODES = IpAddress.ipv6(0xff02L << 48, 1);
    /** The unspecified address {@code ::}: the source of a Duplicate Address Detection probe. */
    public static final IpAddress UNSPECIFIED = IpAddress.ipv6(0, 0);
    private static final int ETH = 14;
    private static final int IP6 = 40;
    private static final int ICMP = ETH + IP6;
    private static final int MESSAGE = 24;

    /**
     * Reads a frame; empty when it is not a valid NS or NA (another protocol, extension headers, a hop limit other
     * than 255, code not 0, a wrong checksum, truncated, or a malformed option): the responder ignores those, as RFC
     * 4861 §7.1 tells a node to.
     */
    public static Optional<NdpFrame> decode(byte[] buf, int length) {
        if (buf == null || length < ICMP + MESSAGE || length > buf.length || u16(buf, 12) != ETHERTYPE_IPV6
                || (buf[ETH] & 0xf0) != 0x60 || (buf[ETH + 6] & 0xff) != NEXT_HEADER_ICMPV6) {
            return Optional.empty();
        }
        int payload = u16(buf, ETH + 4);
        if (payload < MESSAGE || ICMP + payload > length) {
            return Optional.empty();
        }
        int type = buf[ICMP] & 0xff;
        if ((type != SOLICITATION && type != ADVERTISEMENT) || buf[ICMP + 1] != 0) {
            return Optional.empty();
        }
        int hopLimit = buf[ETH + 7] & 0xff;
        if (hopLimit != 255) {
            return Optional.empty();
        }
        IpAddress source = address(buf, ETH + 8);
        IpAddress destination = address(buf, ETH + 24);
        if (checksum(buf, ICMP, payload, source, destination) != 0) {
            return Optional.empty();
        }
        MacAddress option = null;
        int wanted = type == SOLICITATION ? 1 : 2;
        for (int o = ICMP + MESSAGE; o < ICMP + payload; ) {
            if (o + 2 > ICMP + payload) {
                return Optional.empty();
            }
            int len = (buf[o + 1] & 0xff) * 8;
            if (len == 0 || o + len > ICMP + payload) {
                return Optional.empty(); // RFC 4861 §4.6: a zero-length option makes the message invalid
            }
            if ((buf[o] & 0xff) == wanted && len >= 8 && option == null) {
                option = mac(buf, o + 2);
            }
            o += len;
        }
        int flags = type == ADVERTISEMENT ? buf[ICMP + 4] & 0xe0 : 0;
        return Optional.of(new NdpFrame(mac(buf, 0), mac(buf, 6), source, destination,
                hopLimit, type, flags, address(buf, ICMP + 8), option));
    }

    /** The frame as bytes, checksum computed. */
    public byte[] encode() {
        int payload = MESSAGE + (linkLayer == null ? 0 : 8);
        byte[] b = new byte[ICMP + payload];
        mac(b, 0, ethernetDestination);
        mac(b, 6, ethernetSource);
        put16(b, 12, ETHERTYPE_IPV6);
        b[ETH] = 0x60;
        put16(b, ETH + 4, payload);
        b[ETH + 6] = (byte) NEXT_HEADER_ICMPV6;
        b[ETH + 7] = (byte) hopLimit;
        write(b, ETH + 8, source);
        write(b, ETH + 24, destination);
        b[ICMP] = (byte) type;
        b[ICMP + 4] = (byte) flags;
        write(b, ICMP + 8, target);
        if (linkLayer != null) {
            b[ICMP + MESSAGE] = (byte) (type == SOLICITATION ? 1 : 2);
            b[ICMP + MESSAGE + 1] = 1;
            mac(b, ICMP + MESSAGE + 2, linkLayer);
        }
        put16(b, ICMP + 2, checksum(b, ICMP, payload, source, destination));
        return b;
    }

    public boolean isSolicitation() {
        return type == SOLICITATION;
    }

    public boolean isAdvertisement() {
        return type == ADVERTISEMENT;
    }

    /** A Duplicate Address Detection probe: a solicitation from {@code ::} (RFC 4862 §5.4.2). */
    public boolean isDuplicateAddressProbe() {
        return isSolicitation() && UNSPECIFIED.equals(source);
    }

    /**
     * The answer to this solicitation from {@code mac} (RFC 4861 §7.2.4): solicited and override, router flag off,
     * our MAC in the target link-layer option, from the target address to whoever asked. A Duplicate Address
     * Detection probe (source {@code ::}) is answered to all nodes, solicited flag off: the address is taken.
     */
    public NdpFrame advertisementFrom(MacAddress mac) {
        if (isDuplicateAddressProbe()) {
            return unsolicited(mac, target);
        }
        MacAddress to = linkLayer != null ? linkLayer : ethernetSource;
        return new NdpFrame(to, mac, target, source, 255, ADVERTISEMENT, SOLICITED | OVERRIDE, target, mac);
    }

    /** The unsolicited advertisement a new owner sends to ff02::1 (RFC 4861 §7.2.6): override, not solicited. */
    public static NdpFrame unsolicited(MacAddress mac, IpAddress vip) {
        return new NdpFrame(multicastMac(ALL_NODES), mac, vip, ALL_NODES, 255, ADVERTISEMENT, OVERRIDE, vip, mac);
    }

    /** A solicitation for {@code target} from {@code source} to its solicited-node group (a client's, in tests). */
    public static NdpFrame solicitation(MacAddress mac, IpAddress source, IpAddress target) {
        IpAddress group = solicitedNode(target);
        return new NdpFrame(multicastMac(group), mac, source, group, 255, SOLICITATION, 0, target,
                UNSPECIFIED.equals(source) ? null : mac);
    }

    /** The solicited-node multicast address of {@code a}: ff02::1:ff00:0/104 and its last 24 bits (RFC 4291 §2.7.1). */
    public static IpAddress solicitedNode(IpAddress a) {
        return IpAddress.ipv6(0xff02L << 48, 0x1ff000000L | (a.lo() & 0xffffffL));
    }

    /** The Ethernet multicast MAC of an IPv6 multicast address: 33:33 and its last 32 bits (RFC 2464 §7). */
    public static MacAddress multicastMac(IpAddress group) {
        long lo = group.lo();
        return MacAddress.of(new byte[] {0x33, 0x33, (byte) (lo >>> 24), (byte) (lo >>> 16), (byte) (lo >>> 8),
                (byte) lo});
    }

    /**
     * The ICMPv6 checksum over the pseudo-header (RFC 8200 §8.1) and {@code length} bytes at {@code offset}: 0 when
     * verifying a message whose checksum field is set, the value to store when that field is 0.
     */
    static int checksum(byte[] b, int offset, int length, IpAddress source, IpAddress destination) {
        long sum = 0;
        sum += words(source.hi()) + words(source.lo()) + words(destination.hi()) + words(destination.lo());
        sum += (length >>> 16) + (length & 0xffff) + NEXT_HEADER_ICMPV6;
        for (int i = 0; i < length; i += 2) {
            int hi = b[offset + i] & 0xff;
            int lo = i + 1 < length ? b[offset + i + 1] & 0xff : 0;
            sum += (hi << 8) | lo;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) (~sum & 0xffff);
    }

    private static long words(long v) {
        return (v >>> 48) + ((v >>> 32) & 0xffff) + ((v >>> 16) & 0xffff) + (v & 0xffff);
    }

    private static MacAddress mac(byte[] b, int o) {
        return MacAddress.of(java.util.Arrays.copyOfRange(b, o, o + 6));
    }

    private static void mac(byte[] b, int o, MacAddress m) {
        System.arraycopy(m.bytes(), 0, b, o, 6);
    }

    private static IpAddress address(byte[] b, int o) {
        return new IpAddress(IpFamily.IPV6, u64(b, o), u64(b, o + 8));
    }

    private static void write(byte[] b, int o, IpAddress a) {
        put64(b, o, a.hi());
        put64(b, o + 8, a.lo());
    }

    private static long u64(byte[] b, int o) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[o + i] & 0xff);
        }
        return v;
    }

    private static void put64(byte[] b, int o, long v) {
        for (int i = 7; i >= 0; i--) {
            b[o + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static int u16(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    private static void put16(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 8);
        b[o + 1] = (byte) v;
    }

    @Override
    public String toString() {
        return (isSolicitation() ? "NS who-has " + target + " from " + source
                : "NA " + target + " is-at " + linkLayer + " flags " + Integer.toHexString(flags))
                + " (" + ethernetSource + " > " + ethernetDestination + ")";
    }
}
