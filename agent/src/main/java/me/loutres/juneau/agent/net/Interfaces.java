package me.loutres.juneau.agent.net;

import java.net.Inet4Address;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import me.loutres.juneau.agent.arp.MacAddress;
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
                for (InterfaceAddress a : ni.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address v4) {
                        prefixes.add(new InterfaceInfo.Prefix(Ipv4.parse(v4.getHostAddress()), a.getNetworkPrefixLength()));
                    }
                }
                out.add(new InterfaceInfo(ni.getName(), ni.getIndex(),
                        hw != null && hw.length == 6 ? MacAddress.of(hw) : null, prefixes, ni.isUp(), ni.isLoopback()));
            }
        } catch (SocketException e) {
            // no interface list: every VIP reports InterfaceNotFound with this in the message
            return List.of();
        }
        return out;
    }
}
