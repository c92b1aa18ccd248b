package me.loutres.juneau.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** {@code namespace/name} of a Service; also the key of its ServiceLoadBalancer and the allocation owner. */
public record ServiceKey(String namespace, String name) implements Comparable<ServiceKey> {

    public static ServiceKey of(HasMetadata o) {
        return new ServiceKey(o.getMetadata().getNamespace(), o.getMetadata().getName());
    }

    /** Parses {@code namespace/name}. */
    public static ServiceKey parse(String text) {
        int slash = text.indexOf('/');
        if (slash <= 0 || slash == text.length() - 1) {
            throw new IllegalArgumentException("expected namespace/name, got \"" + text + "\"");
        }
        return new ServiceKey(text.substring(0, slash), text.substring(slash + 1));
    }

    @Override
    public int compareTo(ServiceKey o) {
        int c = namespace.compareTo(o.namespace);
        return c != 0 ? c : name.compareTo(o.name);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
