package me.loutres.juneau.controller;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** The label keys whose presence or value differs between two versions of a Node. */
final class NodeLabelChange {

    private NodeLabelChange() {
    }

    static Set<String> changedKeys(Map<String, String> before, Map<String, String> after) {
        Map<String, String> b = before == null ? Map.of() : before;
        Map<String, String> a = after == null ? Map.of() : after;
        Set<String> changed = new TreeSet<>();
        for (String k : b.keySet()) {
            if (!a.containsKey(k) || !Objects.equals(a.get(k), b.get(k))) {
                changed.add(k);
            }
        }
        for (String k : a.keySet()) {
            if (!b.containsKey(k)) {
                changed.add(k);
            }
        }
        return changed;
    }
}
