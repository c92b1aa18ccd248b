package me.loutres.juneau.tls;

/**
 * TLS material (PEM certificates or keys) that cannot be used. The message is one line that says which
 * file or field is wrong and why; it never contains key material, so it is safe to log.
 */
public class InvalidTlsMaterialException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidTlsMaterialException(String message) {
        super(message);
    }

    public InvalidTlsMaterialException(String message, Throwable cause) {
        // the cause's own message may quote input; keep it for debugging but never concatenate it here
        super(message, cause);
    }
}
