package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.HashMap;

/**
 * A Namespace informer's store that keeps name, uid, resourceVersion and labels only: who may use an ExternalNetwork
 * reads nothing else of a Namespace (docs/install.md, "Sharing a cluster between teams"), so a cluster with many
 * namespaces costs a few bytes each in the webhook and the controller, not their annotations and status.
 */
public final class NamespaceLabelsStore extends BasicItemStore<Namespace> {
    public NamespaceLabelsStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Namespace put(String key, Namespace ns) {
        return super.put(key, lean(ns));
    }

    /** What the store keeps of a Namespace. */
    public static Namespace lean(Namespace ns) {
        ObjectMeta m = ns.getMetadata();
        return new NamespaceBuilder().withNewMetadata().withName(m.getName()).withUid(m.getUid())
                .withResourceVersion(m.getResourceVersion())
                .withLabels(m.getLabels() == null ? null : new HashMap<>(m.getLabels())).endMetadata().build();
    }
}
