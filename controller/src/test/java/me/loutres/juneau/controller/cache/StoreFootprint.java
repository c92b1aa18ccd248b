package me.loutres.juneau.controller.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.JuneauResources;
import me.loutres.juneau.api.v1alpha1.ServiceLoadBalancer;
import me.loutres.juneau.runtime.watch.LeanStore;

/**
 * Bytes of heap per stored object, per kind, as an informer store keeps it (not a test; issue 38, must show 1):
 * lists each kind from a running API server (benchmarks/scale/run.sh runs it against its cluster), and stores an
 * independent copy of every object (parsed from its JSON, as an informer parses a list) first in fabric8's plain
 * store, then in a {@link LeanStore}; the live heap after a full collection, before and after filling, divided by the
 * count. Each kind also once more with a managedFields entry of the size a real API server adds (the local one adds
 * none to plain creates). Run with {@code -XX:+UseSerialGC} so that a {@code System.gc()} is one full collection:
 * <pre>
 * java -XX:+UseSerialGC -Xmx2g -cp "$CP" me.loutres.juneau.controller.cache.StoreFootprint KUBECONFIG
 * </pre>
 */
public final class StoreFootprint {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    /** Objects stored per measurement, at least. */
    private static final int COUNT = 20_000;
    /** One manager's managedFields, as kube-apiserver records a create by a client (kubectl, a controller). */
    private static final String MANAGED = "[{\"manager\":\"kubectl-client-side-apply\",\"operation\":\"Update\","
            + "\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":"
            + "{\"f:metadata\":{\"f:annotations\":{\".\":{},\"f:juneau.loutres.me/external-network\":{}}},"
            + "\"f:spec\":{\"f:externalTrafficPolicy\":{},\"f:loadBalancerClass\":{},\"f:ports\":{\".\":{},"
            + "\"k:{\\\"port\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:name\":{},\"f:port\":{},"
            + "\"f:protocol\":{},\"f:targetPort\":{}}},\"f:type\":{}}}}]";

    private StoreFootprint() {
    }

    public static void main(String[] args) throws Exception {
        JuneauResources.KINDS.forEach(JSON::registerKubernetesResource);
        Config config = Config.fromKubeconfig(Files.readString(Path.of(args[0])));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            JuneauResources.KINDS.forEach(client.getKubernetesSerialization()::registerKubernetesResource);
            System.out.printf("%-22s %7s %14s %14s %14s %14s%n", "kind", "count", "plain B/obj", "lean B/obj",
                    "plain+mF B/obj", "lean+mF B/obj");
            measure("Service", Service.class, client.services().inAnyNamespace().list().getItems(), false);
            measure("EndpointSlice", EndpointSlice.class,
                    client.discovery().v1().endpointSlices().inAnyNamespace().list().getItems(), false);
            measure("ServiceLoadBalancer", ServiceLoadBalancer.class,
                    client.resources(ServiceLoadBalancer.class).inAnyNamespace().list().getItems(), true);
            measure("ARPAdvertisement", ARPAdvertisement.class,
                    client.resources(ARPAdvertisement.class).list().getItems(), true);
        }
    }

    private static <T extends HasMetadata> void measure(String kind, Class<T> type, List<T> items,
            boolean updatedWhole) {
        List<String> json = new ArrayList<>(items.size());
        List<String> managed = new ArrayList<>(items.size());
        for (T o : items) {
            String j = JSON.asJson(o);
            json.add(j);
            managed.add(j.replaceFirst("\"metadata\":\\{", java.util.regex.Matcher.quoteReplacement(
                    "\"metadata\":{\"managedFields\":" + MANAGED + ",")));
        }
        items = null;
        int n = json.size();
        if (n == 0) {
            System.out.printf("%-22s %7d (none in the cluster)%n", kind, 0);
            return;
        }
        // warm-up: the classes loaded and the code compiled before the first measurement
        perObject(json, type, () -> new LeanStore<>(!updatedWhole));
        perObject(json, type, () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
        double plain = perObject(json, type, () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
        double lean = perObject(json, type, () -> new LeanStore<>(!updatedWhole));
        double plainManaged = perObject(managed, type, () -> new BasicItemStore<>(Cache::metaNamespaceKeyFunc));
        double leanManaged = perObject(managed, type, () -> new LeanStore<>(!updatedWhole));
        System.out.printf("%-22s %7d %14.0f %14.0f %14.0f %14.0f%n", kind, n, plain, lean, plainManaged, leanManaged);
    }

    private static <T extends HasMetadata> double perObject(List<String> json, Class<T> type,
            Supplier<ItemStore<T>> stores) {
        long before = live();
        ItemStore<T> store = stores.get();
        // at least 20,000 objects, for a figure above the collector's noise: the cluster's objects again under
        // other names
        int copies = Math.max(1, (COUNT + json.size() - 1) / json.size());
        for (int c = 0; c < copies; c++) {
            for (String j : json) {
                T o = JSON.unmarshal(j, type);
                if (c > 0) {
                    o.getMetadata().setName(o.getMetadata().getName() + "-" + c);
                }
                store.put(store.getKey(o), o);
            }
        }
        long after = live();
        if (store.size() != copies * json.size()) {
            throw new IllegalStateException("stored " + store.size() + " of " + copies * json.size());
        }
        return (after - before) / (double) store.size();
    }

    private static long live() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
