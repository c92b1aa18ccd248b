package me.loutres.juneau.agent.bgp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.agent.net.InterfaceInfo;

/**
 * What the node knows of the way to its peers, to explain a session BIRD says nothing about ({@link LastErrors}):
 * its interfaces' IPv4 prefixes and the kernel's IPv4 routes. Either list is null when it could not be read: no hint
 * is made from a fact not known.
 *
 * @param interfaces the node's interfaces, or null
 * @param routes     the kernel's IPv4 routes (the main table, as {@code /proc/net/route} lists it), or null
 */
public record NodeReach(List<InterfaceInfo> interfaces, List<Route> routes) {
    private static final Path PROC_ROUTES = Path.of("/proc/net/route");

    /** One kernel route: a destination prefix (0.0.0.0/0 is the default route). */
    public record Route(long destination, int length) {
        public boolean contains(long ip) {
            long mask = me.loutres.juneau.ip.Ipv4.mask(length);
            return (destination & mask) == (ip & mask);
        }
    }

    public static NodeReach unknown() {
        return new NodeReach(null, null);
    }

    /** The node's facts now: the interfaces given, the routes of this network namespace's kernel. */
    public static NodeReach read(List<InterfaceInfo> interfaces) {
        List<Route> routes;
        try {
            routes = parseRoutes(Files.readString(PROC_ROUTES));
        } catch (IOException | RuntimeException e) {
            routes = null;
        }
        return new NodeReach(interfaces, routes);
    }

    /**
     * The routes of {@code /proc/net/route}: a header line, then one line per route whose second and eighth fields
     * are the destination and the mask, in hexadecimal and in the host's (little-endian) byte order.
     */
    static List<Route> parseRoutes(String text) {
        List<Route> out = new ArrayList<>();
        for (String line : text.lines().skip(1).toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 8) {
                continue;
            }
            long destination = Integer.reverseBytes(Integer.parseUnsignedInt(f[1], 16)) & 0xFFFF_FFFFL;
            int mask = Integer.reverseBytes(Integer.parseUnsignedInt(f[7], 16));
            out.add(new Route(destination, Integer.bitCount(mask)));
        }
        return out;
    }
}
