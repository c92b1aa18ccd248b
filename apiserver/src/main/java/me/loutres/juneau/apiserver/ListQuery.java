package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The selection of a list, a watch or a delete-collection: label and field selectors as kube-apiserver reads them.
 * {@code labelEquals} holds the equality requirements the store answers from its label index; {@code filter} is the
 * whole selection; {@code name} is set by a path name or a {@code metadata.name=} field selector.
 */
record ListQuery(Map<String, String> labelEquals, Predicate<JsonNode> filter, String name) {

    static ListQuery of(ApiCall call, ResourceType type, String pathName) throws ApiException {
        Selectors.LabelSelector labels = Selectors.labels(call.param("labelSelector"));
        List<Selectors.FieldRequirement> fields = Selectors.fields(type, call.param("fieldSelector"));
        Map<String, String> equals = new LinkedHashMap<>();
        for (Selectors.Requirement r : labels.requirements()) {
            if ((r.op().equals("=") || r.op().equals("in")) && r.values().size() == 1) {
                equals.put(r.key(), r.values().iterator().next());
            }
        }
        String byName = pathName;
        for (Selectors.FieldRequirement f : fields) {
            if (f.field().equals("metadata.name") && f.equal()) {
                byName = f.value();
            }
        }
        Predicate<JsonNode> fieldMatch = Selectors.fieldPredicate(fields);
        String exact = byName;
        Predicate<JsonNode> filter = o -> {
            if (exact != null && !exact.equals(o.path("metadata").path("name").asText())) {
                return false;
            }
            Map<String, String> l = new HashMap<>();
            o.path("metadata").path("labels").properties().forEach(e -> l.put(e.getKey(), e.getValue().asText()));
            return labels.matches(l) && fieldMatch.test(o);
        };
        return new ListQuery(equals, filter, exact);
    }
}
