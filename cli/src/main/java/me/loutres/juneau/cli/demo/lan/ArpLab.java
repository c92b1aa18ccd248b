package me.loutres.juneau.cli.demo.lan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import me.loutres.juneau.agent.arp.MacAddress;

/**
 * A LAN made of network namespaces only: a bridge in a namespace of its own, and one namespace per host (a client
 * and the nodes), each with an {@code eth0} veth whose peer is a port of that bridge. Addresses are in
 * 198.18.0.0/24 (RFC 2544 benchmarking space), and 198.18.1.0/24 on an optional second LAN ({@link #secondLink});
 * nothing is created in, or routed to, the root namespace.
 */
public final class ArpLab implements AutoCloseable {
    static final String SUBNET = "198.18.0.";
    static final String SECOND_SUBNET = "198.18.1.";
    static final String IPV6_PREFIX = "2001:db8::";

    /** One host: its namespace, address and the MAC of its eth0. */
    public record Host(String name, String namespace, String ip, MacAddress mac) {
    }

    private final String prefix;
    private final String lan;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final List<String> namespaces = new ArrayList<>();
    private boolean secondLan;

    private ArpLab(String prefix) {
        this.prefix = prefix;
        this.lan = prefix + "-lan";
    }

    /** Why the lab cannot be built here, or null when it can (root, ip netns, veth and bridge available). */
    public static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not running as root (user " + System.getProperty("user.name") + "): network namespaces need"
                    + " CAP_SYS_ADMIN and raw sockets CAP_NET_RAW; CI runs as root";
        }
        String probe = "jnprobe" + ThreadLocalRandom.current().nextInt(100000);
        try {
            Netns.run("ip", "netns", "add", probe);
            try {
                Netns.ip(probe, "link", "add", "b0", "type", "bridge");
                Netns.ip(probe, "link", "add", "v0", "type", "veth", "peer", "name", "v1");
            } finally {
                Netns.run("ip", "netns", "del", probe);
            }
            return null;
        } catch (IOException e) {
            return "ip netns / veth / bridge not usable here: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    public static ArpLab create() throws IOException, InterruptedException {
        ArpLab lab = new ArpLab("jn" + ProcessHandle.current().pid() % 100000 + "x"
                + ThreadLocalRandom.current().nextInt(1000));
        try {
            lab.namespace(lab.lan);
            Netns.ip(lab.lan, "link", "add", "br0", "type", "bridge", "stp_state", "0", "forward_delay", "0");
            Netns.ip(lab.lan, "link", "set", "br0", "up");
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
        return lab;
    }

    private void namespace(String name) throws IOException, InterruptedException {
        Netns.run("ip", "netns", "add", name);
        namespaces.add(name);
        Netns.ip(name, "link", "set", "lo", "up");
        Netns.exec(name, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1");
    }

    /** Adds a host with address 198.18.0.{@code octet} and MAC 02:00:00:00:00:{@code octet in hex}. */
    public Host host(String name, int octet) throws IOException, InterruptedException {
        String ns = prefix + "-" + name;
        namespace(ns);
        MacAddress mac = MacAddress.parse(String.format("02:00:00:00:00:%02x", octet));
        String port = "p" + octet;
        Netns.ip(lan, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns);
        Netns.ip(lan, "link", "set", port, "master", "br0", "up");
        Netns.ip(ns, "link", "set", "eth0", "address", mac.toString());
        Netns.ip(ns, "addr", "add", SUBNET + octet + "/24", "dev", "eth0");
        Netns.ip(ns, "link", "set", "eth0", "up");
        Host h = new Host(name, ns, SUBNET + octet, mac);
        hosts.put(name, h);
        return h;
    }

    /**
     * A second LAN (bridge {@code br1} in the LAN namespace, addresses 198.18.1.0/24, MACs 02:00:00:00:01:xx), for
     * nodes with two links: adds {@code eth1} on it to {@code h}'s namespace, with 198.18.1.{@code octet}.
     *
     * @return the new link, as a host of the second LAN (same namespace as {@code h})
     */
    public Host secondLink(Host h, int octet) throws IOException, InterruptedException {
        return attachToSecondLan(h.name() + "-eth1", h.namespace(), "eth1", octet);
    }

    /** Adds a host whose only link, eth0, is on the second LAN (198.18.1.{@code octet}), e.g. a client there. */
    public Host hostOnSecondLan(String name, int octet) throws IOException, InterruptedException {
        String ns = prefix + "-" + name;
        namespace(ns);
        return attachToSecondLan(name, ns, "eth0", octet);
    }

    private Host attachToSecondLan(String name, String ns, String dev, int octet)
            throws IOException, InterruptedException {
        if (!secondLan) {
            Netns.ip(lan, "link", "add", "br1", "type", "bridge", "stp_state", "0", "forward_delay", "0");
            Netns.ip(lan, "link", "set", "br1", "up");
            secondLan = true;
        }
        MacAddress mac = MacAddress.parse(String.format("02:00:00:00:01:%02x", octet));
        String port = "q" + octet;
        Netns.ip(lan, "link", "add", port, "type", "veth", "peer", "name", dev, "netns", ns);
        Netns.ip(lan, "link", "set", port, "master", "br1", "up");
        Netns.ip(ns, "link", "set", dev, "address", mac.toString());
        Netns.ip(ns, "addr", "add", SECOND_SUBNET + octet + "/24", "dev", dev);
        Netns.ip(ns, "link", "set", dev, "up");
        Host h = new Host(name, ns, SECOND_SUBNET + octet, mac);
        hosts.put(name, h);
        return h;
    }

    /**
     * Makes a host's neighbour cache behave like a router's: an entry stays REACHABLE for about 20 minutes and is
     * never re-probed meanwhile, so only gratuitous ARP can move it early.
     */
    public void routerLikeNeighbourCache(Host h) throws IOException, InterruptedException {
        Netns.exec(h.namespace(), "sysctl", "-q", "-w", "net.ipv4.neigh.eth0.base_reachable_time_ms=1200000",
                "net.ipv4.neigh.eth0.gc_stale_time=3600", "net.ipv4.neigh.eth0.delay_first_probe_time=600");
    }

    /**
     * Turns IPv6 on in a host's namespace (the lab turns it off by default) and gives its eth0
     * {@code 2001:db8::<suffix>/64} (RFC 3849 documentation space), without Duplicate Address Detection so the
     * address is usable at once; the host then resolves IPv6 neighbours with NDP (docs/ndp.md).
     *
     * @return the address
     */
    public String ipv6(Host h, String suffix) throws IOException, InterruptedException {
        Netns.exec(h.namespace(), "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=0",
                "net.ipv6.conf.default.disable_ipv6=0", "net.ipv6.conf.eth0.disable_ipv6=0",
                "net.ipv6.conf.eth0.accept_dad=0", "net.ipv6.conf.eth0.accept_ra=0");
        String address = IPV6_PREFIX + suffix;
        Netns.ip(h.namespace(), "-6", "addr", "add", address + "/64", "dev", "eth0", "nodad");
        return address;
    }

    /** {@link #routerLikeNeighbourCache} for IPv6: only an unsolicited Neighbor Advertisement moves an entry early. */
    public void routerLikeIpv6NeighbourCache(Host h) throws IOException, InterruptedException {
        Netns.exec(h.namespace(), "sysctl", "-q", "-w", "net.ipv6.neigh.eth0.base_reachable_time_ms=1200000",
                "net.ipv6.neigh.eth0.gc_stale_time=3600", "net.ipv6.neigh.eth0.delay_first_probe_time=600");
    }

    /** The MAC the host's kernel has for {@code ip} on eth0, or null (no entry, INCOMPLETE or FAILED). */
    public String neighbour(Host h, String ip) throws IOException, InterruptedException {
        String out = Netns.ip(h.namespace(), "neigh", "show", ip, "dev", "eth0").trim();
        String[] f = out.split("\\s+");
        for (int i = 0; i + 1 < f.length; i++) {
            if ("lladdr".equals(f[i])) {
                return f[i + 1];
            }
        }
        return null;
    }

    /** The full neighbour table of a host's eth0, as {@code ip neigh} prints it (for the demo and messages). */
    public String neighbourTable(Host h) throws IOException, InterruptedException {
        return Netns.ip(h.namespace(), "neigh", "show", "dev", "eth0");
    }

    public void flushNeighbours(Host h) throws IOException, InterruptedException {
        Netns.ip(h.namespace(), "neigh", "flush", "dev", "eth0");
    }

    public void linkDown(Host h) throws IOException, InterruptedException {
        Netns.ip(h.namespace(), "link", "set", "eth0", "down");
    }

    public void linkUp(Host h) throws IOException, InterruptedException {
        Netns.ip(h.namespace(), "link", "set", "eth0", "up");
    }

    public int ifindex(Host h) throws IOException, InterruptedException {
        return Integer.parseInt(Netns.exec(h.namespace(), "cat", "/sys/class/net/eth0/ifindex").trim());
    }

    /** Deletes every namespace the lab made; deleting a namespace deletes the veths and the bridge in it. */
    @Override
    public void close() {
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            try {
                Netns.tryRun("ip", "netns", "del", namespaces.get(i));
            } catch (IOException e) {
                System.err.println("arp lab: cannot delete namespace " + namespaces.get(i) + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        namespaces.clear();
    }

    public List<String> namespaces() {
        return List.copyOf(namespaces);
    }
}
