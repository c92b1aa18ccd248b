package me.loutres.juneau.view;

/** An object's content cannot be read as the kind it claims; the message is one line naming the field. */
public class UnreadableObjectException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UnreadableObjectException(String message) {
        super(message);
    }
}
