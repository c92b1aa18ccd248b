package me.loutres.juneau.agent.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import me.loutres.juneau.agent.arp.MacAddress;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.Ipv4;

/** The host's interfaces as {@link InterfaceInfo}, read from the JDK (the network namespace the agent runs in). */
public final class Interfaces {
    private Interfaces() {
    }

    public static List<InterfaceInfo> list() {
        List<InterfaceInfo> out = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                byte[] hw = ni.getHardwareAddress();
                List<InterfaceInfo.Prefix> prefixes = new ArrayList<>();
                List<InterfaceInfo.Ipv6Prefix> v6 = new ArrayList<>();
                for (InterfaceAddress a : ni.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address v4) {
                        prefixes.add(new InterfaceInfo.Prefix(Ipv4.parse(v4.getHostAddress()), a.getNetworkPrefixLength()));
                    } else if (a.getAddress() instanceof Inet6Address v6a && !v6a.isLinkLocalAddress()
                            && !v6a.isLoopbackAddress() && !v6a.isMulticastAddress()) {
                        v6.add(new InterfaceInfo.Ipv6Prefix(ipv6(v6a.getAddress()), a.getNetworkPrefixLength()));
                    }
                }
                out.add(new InterfaceInfo(ni.getName(), ni.getIndex(),
                        hw != null && hw.length == 6 ? MacAddress.of(hw) : null, prefixes, ni.isUp(), ni.isLoopback(), v6));
            }
        } catch (SocketException e) {
            // no interface list: every VIP reports InterfaceNotFound with this in the message
            return List.of();
        }
        return out;
    }

    private static IpAddress ipv6(byte[] b) {
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (b[i] & 0xff);
            lo = (lo << 8) | (b[i + 8] & 0xff);
        }
        return IpAddress.ipv6(hi, lo);
    }
}
