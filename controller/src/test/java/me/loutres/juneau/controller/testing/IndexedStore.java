package me.loutres.juneau.controller.testing;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import java.lang.reflect.Field;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * For load benchmarks only: fabric8's CRUD mock finds an object by scanning every stored object (one event-loop
 * thread, O(objects) per request), which makes a 10,000-Service run measure the mock rather than the controller.
 * This replaces the dispatcher's store with the same LinkedHashMap plus an index by (api, version, plural,
 * namespace, name), used by {@link TestDispatcher#findResource} for single-object lookups. Semantics stay those of
 * the mock: an index hit is re-checked against the store with the mock's own matching.
 */
final class IndexedStore extends LinkedHashMap<AttributeSet, String> {
    private static final String[] IDENTITY = {"api", "version", "plural", "namespace", "name"};
    private final Map<String, AttributeSet> byIdentity = new HashMap<>();

    static IndexedStore install(CrudDispatcher dispatcher) {
        IndexedStore store = new IndexedStore();
        try {
            Field f = CrudDispatcher.class.getDeclaredField("map");
            f.setAccessible(true);
            f.set(dispatcher, Collections.synchronizedMap(store));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot index the mock server's store", e);
        }
        return store;
    }

    /** The identity of a stored object or of a query naming one object; null when incomplete. */
    static String identity(AttributeSet s) {
        StringBuilder b = new StringBuilder();
        for (String k : IDENTITY) {
            Attribute a = s.getAttribute(k);
            if (a == null) {
                if ("namespace".equals(k) || "api".equals(k)) {
                    b.append("|-");
                    continue;
                }
                return null;
            }
            b.append('|').append(a.getValues());
        }
        return b.toString();
    }

    synchronized AttributeSet lookup(String identity) {
        return byIdentity.get(identity);
    }

    @Override
    public synchronized String put(AttributeSet key, String value) {
        String id = identity(key);
        if (id != null) {
            byIdentity.put(id, key);
        }
        return super.put(key, value);
    }

    @Override
    public synchronized void putAll(Map<? extends AttributeSet, ? extends String> m) {
        m.forEach(this::put);
    }

    @Override
    public synchronized String remove(Object key) {
        if (key instanceof AttributeSet a) {
            String id = identity(a);
            if (id != null && a.equals(byIdentity.get(id))) {
                byIdentity.remove(id);
            }
        }
        return super.remove(key);
    }

    @Override
    public synchronized void clear() {
        byIdentity.clear();
        super.clear();
    }
}
