package me.loutres.juneau.agent.net;

import java.io.IOException;
import java.time.Duration;

/**
 * Raw link-layer access for ARP, one channel per interface. The one seam between the agent and the kernel: the
 * real one is {@link JnaPacketSockets} (AF_PACKET), tests use a fake wire, so nothing else needs privileges.
 */
public interface PacketSocket {
    /** Opens a channel that sends and receives ARP frames on the interface. */
    Channel open(InterfaceInfo iface) throws IOException;

    /**
     * Opens a channel that sends IPv6 frames and receives only Neighbor Solicitations and Advertisements on the
     * interface (docs/ndp.md).
     */
    default Channel openNdp(InterfaceInfo iface) throws IOException {
        throw new IOException("this packet socket cannot carry NDP");
    }

    /** An open ARP channel bound to one interface. */
    interface Channel extends AutoCloseable {
        /**
         * Waits up to {@code timeout} for one incoming frame (frames this host sent are skipped).
         *
         * @return its length in {@code buf}, or -1 when none came in time
         * @throws IOException when the socket failed or was closed
         */
        int receive(byte[] buf, Duration timeout) throws IOException;

        /** Sends one complete Ethernet frame. */
        void send(byte[] frame) throws IOException;

        /**
         * Receives frames sent to this link-layer multicast group too (PACKET_ADD_MEMBERSHIP): a VIP's
         * solicited-node group, which the kernel does not join since the VIP is on no interface.
         */
        default void join(me.loutres.juneau.agent.arp.MacAddress group) throws IOException {
        }

        /** Stops receiving a group joined with {@link #join}. */
        default void leave(me.loutres.juneau.agent.arp.MacAddress group) throws IOException {
        }

        @Override
        void close();
    }
}
