package me.loutres.juneau.plan;

/** An Event to record on the Service: {@code type} Normal or Warning. */
public record PlannedEvent(String type, String reason, String message) {
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";

    public static PlannedEvent normal(String reason, String message) {
        return new PlannedEvent(NORMAL, reason, message);
    }

    public static PlannedEvent warning(String reason, String message) {
        return new PlannedEvent(WARNING, reason, message);
    }
}
