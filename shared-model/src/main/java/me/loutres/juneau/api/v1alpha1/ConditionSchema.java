package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;

/**
 * The CRD schema of a {@code status.conditions} list: the fields of Kubernetes' {@code metav1.Condition}, with the
 * descriptions {@code kubectl explain} shows (fabric8's Condition class carries none). Schema only, never
 * instantiated: the status classes keep fabric8's Condition and name this with {@code @SchemaFrom}.
 */
@JsonClassDescription("Conditions of this object, one per type (metav1.Condition).")
public final class ConditionSchema extends ArrayList<ConditionSchema.Entry> {
    private ConditionSchema() {
    }

    /** One condition. */
    @JsonClassDescription("One condition: its type, status and why.")
    public static final class Entry {
        @JsonPropertyDescription("The condition's type, e.g. Ready, Allocated, Announced; one entry per type.")
        public String type;
        @JsonPropertyDescription("True, False or Unknown.")
        public String status;
        @JsonPropertyDescription("A CamelCase word saying why the status is what it is.")
        public String reason;
        @JsonPropertyDescription("A human-readable sentence with the details.")
        public String message;
        @JsonPropertyDescription("When status last changed (RFC 3339).")
        public String lastTransitionTime;
        @JsonPropertyDescription("The metadata.generation the condition was computed from.")
        public Long observedGeneration;

        private Entry() {
        }
    }
}
