package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.view.KubeObjects;

/**
 * Heap per watched ServiceLoadBalancer (BENCHMARKS.md, "Agent and BIRD at 10,000 routes"): N objects as the controller
 * writes them (labels, finalizer, ownerReference, status with three conditions), held the way each watch design holds
 * them: {@code typed} (a typed informer), {@code generic} (a generic informer's store alone), {@code generic+typed}
 * (plus {@link KindReads}' typed copy), {@code lean+typed} ({@link LeanStore} and the typed copy: what the agent
 * did before issue 38), {@code store} ({@link LoadBalancerStore} of node-a, which every object names: what the agent
 * does now) and {@code store-other} (the same store of a node none names: nothing kept). Heap used after {@code System.gc()} before and after. Arguments: N (10000), mode. Not run by
 * {@code mvn verify}.
 */
public final class WatchMemoryBenchmark {
    private WatchMemoryBenchmark() {
    }

    static String json(int i) {
        return "{\"apiVersion\":\"juneau.loutres.me/v1alpha1\",\"kind\":\"ServiceLoadBalancer\",\"metadata\":{\"name\":"
                + "\"s" + i + "\",\"namespace\":\"bulk\",\"uid\":\"" + UUID.randomUUID() + "\",\"resourceVersion\":\""
                + (100000 + i) + "\",\"generation\":1,\"creationTimestamp\":\"2026-12-02T06:10:00Z\",\"labels\":{"
                + "\"juneau.loutres.me/service-name\":\"s" + i + "\",\"juneau.loutres.me/service-namespace\":\"bulk\"},"
                + "\"finalizers\":[\"juneau.loutres.me/finalizer\"],\"ownerReferences\":[{\"apiVersion\":\"v1\","
                + "\"kind\":\"Service\",\"name\":\"s" + i + "\",\"uid\":\"" + UUID.randomUUID() + "\",\"controller\":true,"
                + "\"blockOwnerDeletion\":true}]},\"spec\":{\"serviceRef\":{\"name\":\"s" + i + "\"},"
                + "\"externalNetwork\":\"bulk\"},\"status\":{\"vip\":\"198.18.128." + (i % 250) + "\",\"addressPool\":"
                + "\"bulk\",\"phase\":\"Ready\",\"observedGeneration\":1,\"advertisingNodes\":[\"node-a\",\"node-b\"],"
                + "\"conditions\":[" + condition("Allocated", "VIP 198.18.128.1 from AddressPool bulk") + ","
                + condition("Available", "may be advertised by 2 node(s): node-a, node-b") + ","
                + condition("Announced", "node-a, node-b: Established (tor)") + "]}}";
    }

    static String condition(String type, String message) {
        return "{\"type\":\"" + type + "\",\"status\":\"True\",\"reason\":\"" + type + "\",\"message\":\"" + message
                + "\",\"lastTransitionTime\":\"2026-12-02T06:10:00Z\",\"observedGeneration\":1}";
    }

    static long used() {
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        String mode = args.length > 1 ? args[1] : "lean+typed";
        Serialization.unmarshal(json(0), ServiceLoadBalancer.class); // classes loaded before the first reading
        new LoadBalancerStore("node-a").put("x/y", Serialization.unmarshal(json(0), GenericKubernetesResource.class));
        long withoutTexts = used();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            texts.add(json(i));
        }
        // the store lets the texts go once read (as the informer does its list): compared with the heap without them
        long before = mode.startsWith("store") ? withoutTexts : used();
        List<Object> kept = new ArrayList<>(2 * n);
        LoadBalancerStore store = new LoadBalancerStore(mode.equals("store-other") ? "node-z" : "node-a");
        if (mode.startsWith("store")) {
            kept.add(store);
            // the informer's stores are filled on one thread: String and map sizing as there
            for (String t : texts) {
                GenericKubernetesResource g = Serialization.unmarshal(t, GenericKubernetesResource.class);
                store.put(io.fabric8.kubernetes.client.informers.cache.Cache.metaNamespaceKeyFunc(g), g);
            }
            texts = List.of();
        }
        for (String t : texts) {
            if (mode.equals("typed")) {
                kept.add(Serialization.unmarshal(t, ServiceLoadBalancer.class));
                continue;
            }
            GenericKubernetesResource g = Serialization.unmarshal(t, GenericKubernetesResource.class);
            if (mode.startsWith("lean")) {
                LeanStore.lean(g);
            }
            kept.add(g);
            if (mode.endsWith("+typed")) {
                kept.add(KubeObjects.read(KubeObjects.tree(g), ServiceLoadBalancer.class, "ServiceLoadBalancer"));
            }
        }
        long after = used();
        System.out.printf("%s: %d objects, %.1f MiB, %.0f bytes each (%d held, %d stored)%n", mode, n,
                (after - before) / 1048576.0, (after - before) / (double) n, kept.size(), store.size());
    }
}
