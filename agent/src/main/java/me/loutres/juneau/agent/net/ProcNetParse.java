package me.loutres.juneau.agent.net;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.loutres.juneau.api.v1alpha1.NodeGateway;
import me.loutres.juneau.api.v1alpha1.NodeInterface;
import me.loutres.juneau.api.v1alpha1.NodeNetworkStatus;

/**
 * The node's network as the kernel's text files tell it, with no external binary (the agent image has no iproute2):
 * {@code /proc/net/dev} (interface names), sysfs {@code address} and {@code flags} per interface (MAC, IFF_UP,
 * IFF_LOOPBACK), {@code /proc/net/fib_trie} (the local IPv4 addresses, "/32 host LOCAL" leaves) with
 * {@code /proc/net/route} (the interface and prefix length of each: the longest on-link route of an interface that
 * contains it), {@code /proc/net/if_inet6} (IPv6 addresses with their prefix length and scope) and the default
 * routes of {@code /proc/net/route} (little-endian hex) and {@code /proc/net/ipv6_route} (dest ::/0). The same
 * content as {@code ip -j addr}: loopback and link-local addresses left out, interfaces sorted by name, IPv4
 * addresses (by address) before IPv6 ones. Limitation: an IPv4 address without an on-link route (added with
 * {@code noprefixroute}, or a /32) has no interface in these files and is not reported. Pure.
 */
public final class ProcNetParse {
    private static final String NO_MAC = "00:00:00:00:00:00";
    private static final int IFF_UP = 0x1;
    private static final int IFF_LOOPBACK = 0x8;

    private ProcNetParse() {
    }

    /** An interface as sysfs has it: its MAC ({@code address}) and {@code flags} (hex). */
    public record Link(String name, String mac, int flags) {
    }

    /** Interface names of {@code /proc/net/dev}, in its order. */
    public static List<String> devNames(String dev) {
        List<String> out = new ArrayList<>();
        for (String line : dev.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.contains("|")) {
                out.add(line.substring(0, colon).strip());
            }
        }
        return out;
    }

    /** {@code 0x1003} → 4099. */
    public static int flags(String text) {
        String t = text.strip();
        return Integer.parseInt(t.startsWith("0x") ? t.substring(2) : t, 16);
    }

    public static NodeNetworkStatus parse(List<Link> links, String fibTrie, String route, String ifInet6,
            String ipv6Route) {
        Map<String, List<String>> v4 = ipv4Addresses(fibTrie, route);
        Map<String, List<String>> v6 = ipv6Addresses(ifInet6);
        List<NodeInterface> interfaces = new ArrayList<>();
        for (Link l : links) {
            if ((l.flags() & IFF_LOOPBACK) != 0) {
                continue;
            }
            List<String> addresses = new ArrayList<>(v4.getOrDefault(l.name(), List.of()));
            addresses.addAll(v6.getOrDefault(l.name(), List.of()));
            String mac = l.mac() == null ? "" : l.mac().strip();
            interfaces.add(new NodeInterface(l.name(), mac.isEmpty() || NO_MAC.equals(mac) ? null : mac,
                    (l.flags() & IFF_UP) != 0, addresses));
        }
        interfaces.sort(Comparator.comparing(NodeInterface::getName));
        List<NodeGateway> gateways = new ArrayList<>();
        for (String[] f : rows(route)) {
            if (f.length >= 8 && !f[0].equals("Iface") && f[1].equals("00000000") && f[7].equals("00000000")
                    && !f[2].equals("00000000")) {
                add(new NodeGateway(ipv4(f[2]), f[0]), gateways);
            }
        }
        for (String[] f : rows(ipv6Route)) {
            if (f.length >= 10 && f[1].equals("00") && zero(f[0]) && !zero(f[4])) {
                add(new NodeGateway(ipv6(f[4]), f[9]), gateways);
            }
        }
        return new NodeNetworkStatus(interfaces, gateways);
    }

    /** Interface → "a.b.c.d/len", by address. */
    static Map<String, List<String>> ipv4Addresses(String fibTrie, String route) {
        Set<Long> local = new java.util.TreeSet<>();
        String leaf = null;
        for (String line : fibTrie.split("\n")) {
            String t = line.strip();
            if (t.startsWith("|-- ")) {
                leaf = t.substring(4).strip();
            } else if (leaf != null && t.startsWith("/32 host LOCAL")) {
                local.add(dotted(leaf));
            }
        }
        List<long[]> onLink = new ArrayList<>(); // dest, mask, row index
        List<String> devs = new ArrayList<>();
        for (String[] f : rows(route)) {
            if (f.length >= 8 && !f[0].equals("Iface") && f[2].equals("00000000")) {
                onLink.add(new long[] {le(f[1]), le(f[7])});
                devs.add(f[0]);
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (long a : local) {
            int best = -1;
            int bestLen = -1;
            for (int i = 0; i < onLink.size(); i++) {
                long[] r = onLink.get(i);
                int len = Long.bitCount(r[1]);
                if ((a & r[1]) == r[0] && len > bestLen && len > 0) {
                    best = i;
                    bestLen = len;
                }
            }
            String text = ((a >> 24) & 255) + "." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
            if (best >= 0 && !text.startsWith("169.254.") && !text.startsWith("127.")) {
                out.computeIfAbsent(devs.get(best), k -> new ArrayList<>()).add(text + "/" + bestLen);
            }
        }
        return out;
    }

    /** Interface → "addr/len" of {@code if_inet6}, in its order, link- and host-scoped ones left out. */
    static Map<String, List<String>> ipv6Addresses(String ifInet6) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String[] f : rows(ifInet6)) {
            if (f.length < 6 || f[0].length() != 32) {
                continue;
            }
            int scope = Integer.parseInt(f[3], 16);
            String a = ipv6(f[0]);
            if (scope == 0x20 || scope == 0x10 || a.matches("(?i)fe[89ab].*")) {
                continue;
            }
            out.computeIfAbsent(f[5], k -> new ArrayList<>()).add(a + "/" + Integer.parseInt(f[2], 16));
        }
        return out;
    }

    private static void add(NodeGateway g, List<NodeGateway> out) {
        if (!out.contains(g)) {
            out.add(g);
        }
    }

    private static List<String[]> rows(String text) {
        List<String[]> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String line : text.split("\n")) {
            String t = line.strip();
            if (!t.isEmpty()) {
                out.add(t.split("\\s+"));
            }
        }
        return out;
    }

    private static boolean zero(String hex) {
        return hex.chars().allMatch(c -> c == '0');
    }

    /** Little-endian hex of /proc/net/route → the address as a number in network order. */
    static long le(String hex) {
        long v = Long.parseLong(hex, 16);
        return ((v & 0xff) << 24) | ((v & 0xff00) << 8) | ((v >> 8) & 0xff00) | ((v >> 24) & 0xff);
    }

    static String ipv4(String leHex) {
        long a = le(leHex);
        return ((a >> 24) & 255) + "." + ((a >> 16) & 255) + "." + ((a >> 8) & 255) + "." + (a & 255);
    }

    private static long dotted(String a) {
        long v = 0;
        for (String p : a.split("\\.")) {
            v = (v << 8) | Long.parseLong(p);
        }
        return v;
    }

    /** 32 hex digits → the RFC 5952 text {@code ip} prints (longest run of two or more zero groups as ::). */
    static String ipv6(String hex) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = Integer.parseInt(hex.substring(i * 4, i * 4 + 4), 16);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = Math.max(i, j);
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                b.append("::");
                i += bestLen - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(g[i]));
        }
        return b.toString();
    }
}
