package me.loutres.juneau.webhook.http;

/**
 * A client mistake the envelope answers itself with an HTTP status (400, 405, 413, 415) and a one-line reason,
 * before any rule runs. Carries no stack trace: it is control flow, not a failure of the server.
 */
public final class RejectedRequestException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int status;

    public RejectedRequestException(int status, String reason) {
        super(reason, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public String reason() {
        return getMessage();
    }
}
