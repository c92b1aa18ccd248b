package me.loutres.juneau.certs;

/** Bad input from the user (options, files): one line, exit code 2, nothing changed. */
public class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
