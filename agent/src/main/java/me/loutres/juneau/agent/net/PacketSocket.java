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

        @Override
        void close();
    }
}
