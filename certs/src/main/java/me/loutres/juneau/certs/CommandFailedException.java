package me.loutres.juneau.certs;

/** The command could not do its job (missing objects, API errors): one line, exit code 1. */
public class CommandFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public CommandFailedException(String message) {
        super(message);
    }
}
