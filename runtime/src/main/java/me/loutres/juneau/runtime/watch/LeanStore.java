package me.loutres.juneau.runtime.watch;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An informer's store that keeps each object lean (issue 38; docs/design.md, "Lean watch stores"): the objects the
 * controller and the webhook hold by the tens of thousands (Services, EndpointSlices, ServiceLoadBalancers,
 * ARPAdvertisements) are kept as the same classes their readers read, without what no reader reads and without the
 * empty containers fabric8's model allocates in every object:
 * <ul>
 *   <li>{@code metadata.managedFields} (server-side apply's bookkeeping, a tree larger than the object on a real API
 *   server) is dropped; a write based on the object (a status update) leaves the API server's as they are, since a
 *   request without managedFields keeps the stored ones;</li>
 *   <li>the annotation {@code kubectl.kubernetes.io/last-applied-configuration} (a second copy of the object as
 *   applied) is dropped where the store is told so: kinds the controller only reads or writes through the status
 *   subresource, never by a whole-object update;</li>
 *   <li>every empty list and map (fabric8 allocates one for each list field, map field and unknown-field holder of
 *   each nested object) becomes the shared immutable empty one, a list's spare capacity is trimmed, map keys and the
 *   short values of enumerated fields ({@code kind}, {@code apiVersion}, {@code namespace}, {@code protocol},
 *   {@code nodeName}...) are interned, so 50,000 copies of "v1" or of a label key are one.</li>
 * </ul>
 * Objects in an informer cache are shared and never modified in place (the controller's write bodies are new
 * objects, builders copy), so immutable empty containers are safe to hand out; each object is compacted once, when
 * the informer stores its version.
 */
public final class LeanStore<T extends HasMetadata> extends BasicItemStore<T> {
    /** The annotation kubectl writes on each client-side apply: the whole applied object once more. */
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final boolean dropLastApplied;

    /** @param dropLastApplied whether the kind's last-applied annotation is dropped too (kinds never updated whole) */
    public LeanStore(boolean dropLastApplied) {
        super(Cache::metaNamespaceKeyFunc);
        this.dropLastApplied = dropLastApplied;
    }

    @Override
    public T put(String key, T obj) {
        return super.put(key, lean(obj, dropLastApplied));
    }

    /** Compacts {@code obj} in place (a freshly read object nobody else holds yet) and returns it. */
    public static <T extends HasMetadata> T lean(T obj, boolean dropLastApplied) {
        if (obj == null) {
            return null;
        }
        ObjectMeta m = obj.getMetadata();
        if (m != null) {
            m.setManagedFields(List.of());
            Map<String, String> a = m.getAnnotations();
            if (dropLastApplied && a != null && a.containsKey(LAST_APPLIED)) {
                Map<String, String> kept = new LinkedHashMap<>(a);
                kept.remove(LAST_APPLIED);
                m.setAnnotations(kept);
            }
        }
        compactFields(obj);
        return obj;
    }

    /** Fields whose short string values repeat across objects (enumerations, namespaces, node names, kinds). */
    private static final Set<String> INTERNED = Set.of("apiVersion", "kind", "namespace", "protocol", "type",
            "nodeName", "addressType", "loadBalancerClass", "externalTrafficPolicy", "internalTrafficPolicy",
            "sessionAffinity", "ipFamilyPolicy", "ipFamilies", "ipMode", "externalNetwork", "advertiseMode", "zone",
            "appProtocol", "operator", "key", "status", "reason", "phase", "mode", "addressPool", "pool", "node",
            "fieldsType", "manager", "operation");
    /** A map value at most this long is interned (label values, short annotations); longer ones are kept as read. */
    private static final int INTERN_MAX = 64;

    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> out = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    int mod = f.getModifiers();
                    if (Modifier.isStatic(mod) || Modifier.isFinal(mod) || f.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.add(f);
                    } catch (RuntimeException e) {
                        // a field we may not open is left as it is
                    }
                }
            }
            return out.toArray(Field[]::new);
        }
    };

    private static boolean model(Class<?> c) {
        String n = c.getName();
        return n.startsWith("io.fabric8.kubernetes.api.model.") || n.startsWith("me.loutres.juneau.api.");
    }

    private static void compactFields(Object o) {
        for (Field f : FIELDS.get(o.getClass())) {
            try {
                Object v = f.get(o);
                if (v == null) {
                    continue;
                }
                Object c = compact(v, f.getName(), o instanceof ObjectMeta);
                if (c != v && f.getType().isInstance(c)) {
                    f.set(o, c);
                }
            } catch (IllegalAccessException e) {
                // left as it is
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object compact(Object v, String field, boolean inMeta) {
        if (v instanceof String s) {
            return INTERNED.contains(field) || "name".equals(field) && !inMeta ? s.intern() : s;
        }
        if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                return List.of();
            }
            if (l instanceof ArrayList al) {
                for (int i = 0; i < al.size(); i++) {
                    Object e = al.get(i);
                    Object c = e == null ? null : compact(e, field, false);
                    if (c != e) {
                        al.set(i, c);
                    }
                }
                al.trimToSize();
            }
            return l;
        }
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                return Map.of();
            }
            Map<Object, Object> out = new LinkedHashMap<>((int) (m.size() / 0.75f) + 1);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Object k = e.getKey() instanceof String s ? s.intern() : e.getKey();
                Object val = e.getValue();
                if (val instanceof String s) {
                    val = s.length() <= INTERN_MAX ? s.intern() : s;
                } else if (val != null) {
                    val = compact(val, field, false);
                }
                out.put(k, val);
            }
            if (out.size() == 1) {
                Map.Entry<Object, Object> only = out.entrySet().iterator().next();
                if (only.getValue() != null) {
                    return Map.of(only.getKey(), only.getValue());
                }
            }
            return out;
        }
        if (model(v.getClass())) {
            compactFields(v);
        }
        return v;
    }
}
