package me.loutres.juneau.cli.validate;

import java.util.List;

/**
 * What the cluster would answer for one object.
 *
 * @param operation CREATE, or UPDATE when the object already exists (cluster state or an earlier manifest)
 * @param accepted  false when a webhook denied it (or its kind does not exist in the API group)
 * @param checked   false for kinds Juneau has no rules for (passed through, counted as accepted)
 * @param reason    why it was refused, as kubectl names it: Forbidden (a webhook denied it), NotFound (no such kind
 *                  in the API), BadRequest (the object cannot be read as its kind); null when accepted
 * @param webhook   the webhook that denied it, null otherwise
 * @param message   the denial message, null when accepted
 * @param warnings  admission warnings, in the order the webhooks gave them
 * @param forecast  for an accepted managed Service: the VIP it would get or why not; null otherwise
 */
public record Outcome(ManifestObject object, String operation, boolean accepted, boolean checked, String reason, String webhook,
                      String message, List<String> warnings, VipForecast forecast) {

    public static final String FORBIDDEN = "Forbidden";
    public static final String NOT_FOUND = "NotFound";
    public static final String BAD_REQUEST = "BadRequest";
    /** a webhook's answer the API server cannot use (its 500): a bug of the webhook, never the manifest's */
    public static final String INTERNAL = "InternalError";

    /** The line kubectl would print for a refusal. */
    public String errorLine() {
        if (accepted) {
            return null;
        }
        String when = "error when " + ("UPDATE".equals(operation) ? "replacing" : "creating") + " \"" + object.file() + "\": ";
        return switch (reason) {
            case NOT_FOUND -> "error: resource mapping not found for name: \"" + object.name() + "\" namespace: \""
                    + object.namespace() + "\" from \"" + object.file() + "\": " + message;
            case BAD_REQUEST -> "Error from server (BadRequest): " + when + object.kind() + " in version \""
                    + object.apiVersion() + "\" cannot be handled as a " + object.kind() + ": " + message;
            case INTERNAL -> "Error from server (InternalError): " + when + "Internal error occurred: " + message;
            default -> "Error from server (Forbidden): " + when + "admission webhook \"" + webhook
                    + "\" denied the request: " + message;
        };
    }

    /** The verb kubectl prints for an accepted object. */
    public String verb() {
        return "UPDATE".equals(operation) ? "configured" : "created";
    }

    /**
     * The VIP a managed Service would get.
     *
     * @param phase   Allocated, Pending or Error (the ServiceLoadBalancer phase it would start in)
     * @param reason  the Allocated condition's reason
     * @param vip     the address, null unless allocated
     * @param pool    the AddressPool of the address, null unless allocated
     * @param message what happened and what to do
     * @param mayAdvertise the Nodes of the cluster state that may advertise the VIP (the network's nodeSelector and
     *                the exclusion label, as the controller applies them); those with a ready backend will
     * @param leftOut {@code node: why} for the Nodes that may not
     */
    public record VipForecast(String phase, String reason, String vip, String pool, String network, String message,
            List<String> mayAdvertise, List<String> leftOut) {

        public VipForecast {
            mayAdvertise = mayAdvertise == null ? List.of() : List.copyOf(mayAdvertise);
            leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        }

        public VipForecast(String phase, String reason, String vip, String pool, String network, String message) {
            this(phase, reason, vip, pool, network, message, List.of(), List.of());
        }

        public VipForecast withNodes(List<String> may, List<String> out) {
            return new VipForecast(phase, reason, vip, pool, network, message, may, out);
        }

        public boolean allocated() {
            return vip != null;
        }

        public String describe() {
            if (allocated()) {
                return "VIP " + vip + " from AddressPool " + pool + " (ExternalNetwork " + network + ")" + nodes();
            }
            return "would stay " + phase + " (" + reason + "): " + message;
        }

        /** The advertising-node forecast; nothing when the cluster state has no Nodes. */
        private String nodes() {
            if (mayAdvertise.isEmpty() && leftOut.isEmpty()) {
                return "";
            }
            String out = leftOut.isEmpty() ? "" : "; left out: " + String.join("; ", leftOut);
            if (mayAdvertise.isEmpty()) {
                return "; no node may advertise it" + out;
            }
            return "; advertised by those of " + String.join(", ", mayAdvertise) + " with a ready backend" + out;
        }
    }
}
