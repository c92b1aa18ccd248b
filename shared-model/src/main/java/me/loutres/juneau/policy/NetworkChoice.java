package me.loutres.juneau.policy;

/** Which ExternalNetwork serves a managed Service ({@link DefaultNetwork#choose}). */
public sealed interface NetworkChoice {

    /** The name, or null when there is none to use. */
    String networkOrNull();

    /**
     * A network by name.
     *
     * @param byDefault true when the Service has no annotation and the default network was chosen
     */
    record Named(String network, boolean byDefault) implements NetworkChoice {
        @Override
        public String networkOrNull() {
            return network;
        }
    }

    /**
     * No annotation and no single default the Service may use; the message names what is missing or in conflict, and
     * the fix.
     *
     * @param notAllowed true when a default network exists but does not let this Service use it
     *                   ({@link NetworkAccess}): the controller's reason is then {@code NotAllowed}
     */
    record Unresolved(String message, boolean notAllowed) implements NetworkChoice {
        public Unresolved(String message) {
            this(message, false);
        }

        @Override
        public String networkOrNull() {
            return null;
        }
    }
}
