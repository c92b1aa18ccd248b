package me.loutres.juneau.ip;

/** A user's address text is not acceptable; the message quotes the text and says what would be accepted. */
public class InvalidAddressException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidAddressException(String message) {
        super(message);
    }
}
