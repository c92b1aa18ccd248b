package me.loutres.juneau.agent.arp;

import java.util.Arrays;
import java.util.HexFormat;

/** A 48-bit Ethernet address, immutable, written as {@code 02:00:5e:10:00:01}. */
public final class MacAddress {
    public static final MacAddress BROADCAST = new MacAddress(new byte[] {-1, -1, -1, -1, -1, -1});
    public static final MacAddress ZERO = new MacAddress(new byte[6]);
    private static final HexFormat HEX = HexFormat.ofDelimiter(":");

    private final byte[] bytes;

    private MacAddress(byte[] bytes) {
        this.bytes = bytes;
    }

    public static MacAddress of(byte[] bytes) {
        if (bytes == null || bytes.length != 6) {
            throw new IllegalArgumentException("a MAC address has 6 bytes, got "
                    + (bytes == null ? "none" : bytes.length));
        }
        return new MacAddress(bytes.clone());
    }

    static MacAddress read(byte[] buf, int offset) {
        return new MacAddress(Arrays.copyOfRange(buf, offset, offset + 6));
    }

    public static MacAddress parse(String text) {
        try {
            byte[] b = HEX.parseHex(text.trim());
            if (b.length == 6) {
                return new MacAddress(b);
            }
        } catch (IllegalArgumentException e) {
            // fall through to the one message below
        }
        throw new IllegalArgumentException("\"" + text + "\" is not a MAC address; expected six hex pairs such as"
                + " 02:00:5e:10:00:01");
    }

    void write(byte[] buf, int offset) {
        System.arraycopy(bytes, 0, buf, offset, 6);
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MacAddress m && Arrays.equals(bytes, m.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return HEX.formatHex(bytes);
    }
}
