package me.loutres.juneau.plan;

/**
 * The API server refused a controller write (admission or validation: 403, 422; docs/phases-and-conditions.md).
 *
 * @param what    the write in words, e.g. {@code create ARPAdvertisement "slb-default-web"}
 * @param message the server's message, as the user needs it
 */
public record WriteDenial(String what, String message) {

    /** The Warning event that says so on the Service. */
    public PlannedEvent warning() {
        return PlannedEvent.warning(me.loutres.juneau.api.JuneauConstants.REASON_WRITE_DENIED,
                "the API server refused to " + what + ": " + message);
    }
}
