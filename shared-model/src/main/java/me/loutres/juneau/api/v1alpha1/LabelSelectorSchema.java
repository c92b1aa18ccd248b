package me.loutres.juneau.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The CRD schema of a {@code metav1.LabelSelector} field, with the descriptions {@code kubectl explain} shows
 * (fabric8's LabelSelector class carries none). Schema only, never instantiated: the spec classes keep fabric8's
 * LabelSelector and name this (or {@link LabelSelectorSchema.AnyOf} for a list of them) with {@code @SchemaFrom}.
 */
@JsonClassDescription("A label selector (metav1.LabelSelector): matchLabels and matchExpressions must all hold.")
public final class LabelSelectorSchema {
    @JsonPropertyDescription("Labels the selected object (a node, a namespace, a Service) must carry with exactly these values.")
    public Map<String, String> matchLabels;
    @JsonPropertyDescription("Requirements on the selected object's labels; all must hold.")
    public List<Requirement> matchExpressions;

    private LabelSelectorSchema() {
    }

    /** One requirement of matchExpressions. */
    @JsonClassDescription("One requirement: a label key, an operator and values.")
    public static final class Requirement {
        @JsonPropertyDescription("The label key the requirement applies to.")
        public String key;
        @JsonPropertyDescription("In, NotIn, Exists or DoesNotExist.")
        public String operator;
        @JsonPropertyDescription("Values for In and NotIn (at least one); empty for Exists and DoesNotExist.")
        public List<String> values;

        private Requirement() {
        }
    }

    /** The schema of a list of label selectors. */
    @JsonClassDescription("Label selectors; an object matches when any one of them selects it.")
    public static final class AnyOf extends ArrayList<LabelSelectorSchema> {
        private AnyOf() {
        }
    }
}
