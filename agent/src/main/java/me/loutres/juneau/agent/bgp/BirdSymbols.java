package me.loutres.juneau.agent.bgp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The names of the agent's protocols and filters in BIRD (docs/bgp.md, "Names in BIRD"). BIRD's symbols hold at most
 * 64 characters and a Kubernetes name up to 253, so a name longer than {@link #MAX_NAME} is written as its first 44
 * characters, {@code _} and 12 hex digits of its SHA-256: stable across restarts and nodes, and never equal to
 * another name's symbol ({@code _} is in no Kubernetes name). The renderer names every symbol here and the driver
 * finds a peer's protocol in {@code show protocols} here, so the two always agree.
 */
public final class BirdSymbols {
    static final int SYMBOL_MAX = 64;
    /** The longest prefix, {@code export:}, leaves this much of a name within {@link #SYMBOL_MAX}. */
    static final int MAX_NAME = SYMBOL_MAX - "export:".length();
    private static final int HASH_HEX = 12;
    /** Kubernetes object names (DNS-1123 subdomains): safe inside BIRD's quoted symbols and strings. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?");

    private BirdSymbols() {
    }

    /** The BGP protocol of a BGPPeer. */
    public static String peer(String peer) {
        return "peer:" + shortName(peer);
    }

    /** The export filter of a BGPPeer's session. */
    public static String exportFilter(String peer) {
        return "export:" + shortName(peer);
    }

    /** The static protocol holding an ExternalNetwork's routes. */
    public static String network(String network) {
        return "net:" + shortName(network);
    }

    /** The name itself when it fits, else its stable short form; IllegalArgumentException for no Kubernetes name. */
    static String shortName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("'" + name + "' is not a Kubernetes object name");
        }
        if (name.length() <= MAX_NAME) {
            return name;
        }
        return name.substring(0, MAX_NAME - 1 - HASH_HEX) + "_" + HexFormat.of().formatHex(sha256(name))
                .substring(0, HASH_HEX);
    }

    /** Whether the symbol had to be shortened, so the configuration carries the full name beside it. */
    static boolean shortened(String name) {
        return name.length() > MAX_NAME;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
