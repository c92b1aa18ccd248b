package me.loutres.juneau.bgp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A BGPPeer's TCP MD5 password, the value of its Secret's key (docs/bgp.md): the kernel holds at most 80 bytes
 * (TCP_MD5SIG_MAXKEYLEN), BIRD reads it as UTF-8 text between double quotes without escapes, and a NUL or line break
 * would end it early. Admission checks the Secret it can see with this rule, and the agent checks the Secret it reads
 * with it again before writing the password for BIRD. No message ever shows the password.
 */
public final class Md5PasswordRule {
    public static final int MAX_BYTES = 80;
    public static final String ACCEPTED = "accepted: 1 to 80 bytes of UTF-8 (the kernel's TCP MD5 key limit) without"
            + " a double quote, backslash, line break or NUL";

    private Md5PasswordRule() {
    }

    /** Why these bytes cannot be the password, e.g. {@code is 96 bytes long}; empty when they can. */
    public static Optional<String> problem(byte[] value) {
        if (value == null || value.length == 0) {
            return Optional.of("is empty");
        }
        if (value.length > MAX_BYTES) {
            return Optional.of("is " + value.length + " bytes long");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            return Optional.of("is not valid UTF-8");
        }
        for (int i = 0; i < text.length(); i++) {
            String what = switch (text.charAt(i)) {
                case '"' -> "a double quote";
                case '\\' -> "a backslash";
                case '\n', '\r' -> "a line break";
                case '\0' -> "a NUL";
                default -> null;
            };
            if (what != null) {
                return Optional.of("contains " + what);
            }
        }
        return Optional.empty();
    }

    /** The password as BIRD's configuration carries it; only for bytes {@link #problem} accepts. */
    public static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }
}
