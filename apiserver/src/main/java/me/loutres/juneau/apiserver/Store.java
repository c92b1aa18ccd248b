package me.loutres.juneau.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The objects, like etcd behind kube-apiserver: one global resourceVersion counter, objects kept sorted by
 * namespace/name per resource (a namespace is a key range, never a scan), indexes by label, uid and owner uid,
 * and a bounded history of changes so a watch can start from a resourceVersion (older than the history: 410
 * Gone, and the client lists again). Stored objects are never modified in place; readers get them without
 * locking, writers commit one at a time (a commit is an in-memory map update, admission happens before it).
 */
final class Store {
    static final String ADDED = "ADDED";
    static final String MODIFIED = "MODIFIED";
    static final String DELETED = "DELETED";
    private static final int DEFAULT_HISTORY = 50_000;
    private static final int WATCH_QUEUE_LIMIT = 500_000;

    /** A change: the object after it (for DELETED the last state) and before it. */
    record Event(ResourceType type, String kind, ObjectNode object, ObjectNode old, long rv) {
    }

    /** An object's place in the store. */
    record Ref(ResourceType type, String namespace, String name) {
    }

    /** What a watch stream sends: an event type and the object. */
    record WatchItem(String type, Encoded encoded) {
        JsonNode object() {
            return encoded.object();
        }
    }

    /**
     * An object of an event with its JSON, written once however many watch streams send it (the controller's and
     * the webhook's informers watch the same kinds).
     */
    static final class Encoded {
        private final JsonNode object;
        private volatile byte[] json;

        Encoded(JsonNode object) {
            this.object = object;
        }

        JsonNode object() {
            return object;
        }

        byte[] json() {
            byte[] j = json;
            if (j == null) {
                try {
                    j = Json.MAPPER.writeValueAsBytes(object);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                json = j; // two streams racing here write the same bytes
            }
            return j;
        }

        /** The events of this object built so far, by kind: ADDED, MODIFIED, DELETED (see {@link #kindIndex}). */
        private final java.util.concurrent.atomic.AtomicReferenceArray<byte[]> events =
                new java.util.concurrent.atomic.AtomicReferenceArray<>(3);

        /**
         * The whole watch event {@code {"type":KIND,"object":...}} as UTF-8, built once per kind however many
         * streams send it (a WebSocket stream sends these bytes as its text message, an HTTP stream as its line).
         */
        byte[] event(String kind) {
            int index = kindIndex(kind);
            byte[] e = index < 0 ? null : events.get(index);
            if (e != null) {
                return e;
            }
            byte[] kindBytes = kind.getBytes(StandardCharsets.UTF_8);
            byte[] o = json();
            e = new byte[EVENT_START.length + kindBytes.length + EVENT_OBJECT.length + o.length + 1];
            int at = 0;
            for (byte[] part : new byte[][] {EVENT_START, kindBytes, EVENT_OBJECT, o}) {
                System.arraycopy(part, 0, e, at, part.length);
                at += part.length;
            }
            e[at] = '}';
            if (index >= 0) {
                events.set(index, e); // racing streams build the same bytes
            }
            return e;
        }

        private static int kindIndex(String kind) {
            return switch (kind) {
                case ADDED -> 0;
                case MODIFIED -> 1;
                case DELETED -> 2;
                default -> -1;
            };
        }

        private static final byte[] EVENT_START = "{\"type\":\"".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] EVENT_OBJECT = "\",\"object\":".getBytes(StandardCharsets.US_ASCII);
    }

    /** One open watch: the events it selects, queued for the stream that serves it. */
    static final class Watch {
        final ResourceType type;
        final String namespace;
        final Predicate<JsonNode> filter;
        final BlockingQueue<WatchItem> queue = new LinkedBlockingQueue<>();
        volatile boolean overflowed;

        Watch(ResourceType type, String namespace, Predicate<JsonNode> filter) {
            this.type = type;
            this.namespace = namespace;
            this.filter = filter;
        }

        void offer(Event e) {
            offer(e, null);
        }

        void offer(Event e, Encoded encoded) {
            if (!e.type().key().equals(type.key())) {
                return;
            }
            if (namespace != null && !namespace.equals(e.object().path("metadata").path("namespace").asText(null))) {
                return;
            }
            boolean now = filter.test(e.object());
            boolean was = e.old() != null && filter.test(e.old());
            String kind = switch (e.kind()) {
                case ADDED -> now ? ADDED : null;
                case MODIFIED -> now && was ? MODIFIED : now ? ADDED : was ? DELETED : null;
                default -> now || was ? DELETED : null;
            };
            if (kind == null) {
                return;
            }
            if (queue.size() > WATCH_QUEUE_LIMIT) {
                overflowed = true;
                return;
            }
            queue.add(new WatchItem(kind, encoded != null ? encoded : new Encoded(e.object())));
        }
    }

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private long revision;
    /** The newest resourceVersion whose events every watch queue already holds (for bookmarks). */
    private volatile long published;
    private final Map<String, ConcurrentSkipListMap<String, ObjectNode>> objects = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Set<String>>> labels = new ConcurrentHashMap<>();
    private final Map<String, Ref> byUid = new ConcurrentHashMap<>();
    private final Map<String, Set<Ref>> byOwner = new ConcurrentHashMap<>();
    private final ArrayDeque<Event> history = new ArrayDeque<>();
    private final List<Watch> watches = new CopyOnWriteArrayList<>();
    private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
    private final int historyLimit;
    /** The event object this thread committed last, with its JSON (see {@link #committedJson}). */
    private final ThreadLocal<Encoded> lastCommit = new ThreadLocal<>();

    Store() {
        this(DEFAULT_HISTORY);
    }

    /** @param historyLimit how many changes a watch can resume from (kube keeps a few minutes of etcd history) */
    Store(int historyLimit) {
        this.historyLimit = historyLimit;
    }

    static String key(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    private ConcurrentSkipListMap<String, ObjectNode> of(ResourceType type) {
        return objects.computeIfAbsent(type.key(), k -> new ConcurrentSkipListMap<>());
    }

    long revision() {
        return published;
    }

    /** Called under the commit lock for every change (keep it short: enqueue work). */
    void addListener(Consumer<Event> listener) {
        listeners.add(listener);
    }

    /**
     * The JSON of {@code object} when it is the very object this thread's last commit stored (the answer to a write
     * is the object its watch event carries: serialized once for the answer and every watch stream), else null.
     * Forgets that commit either way.
     */
    byte[] committedJson(ObjectNode object) {
        Encoded last = lastCommit.get();
        lastCommit.remove();
        return last != null && last.object() == object ? last.json() : null;
    }

    ObjectNode get(ResourceType type, String namespace, String name) {
        return of(type).get(key(namespace, name));
    }

    Ref byUid(String uid) {
        return uid == null ? null : byUid.get(uid);
    }

    /** The objects whose ownerReferences name this uid. */
    List<Ref> dependents(String ownerUid) {
        Set<Ref> refs = byOwner.get(ownerUid);
        return refs == null ? List.of() : List.copyOf(refs);
    }

    /** A consistent list: the objects and the resourceVersion they are the state of. */
    record Snapshot(List<ObjectNode> items, long revision) {
    }

    Snapshot list(ResourceType type, String namespace, Map<String, String> labelEquals, Predicate<JsonNode> filter,
            String startAfter, int limit) {
        lock.readLock().lock();
        try {
            ConcurrentSkipListMap<String, ObjectNode> all = of(type);
            java.util.concurrent.ConcurrentNavigableMap<String, ObjectNode> range =
                    namespace == null || !type.namespaced() ? all
                            : all.subMap(namespace + "/", true, namespace + "/\uffff", true);
            Set<String> indexed = null;
            for (Map.Entry<String, String> e : labelEquals.entrySet()) {
                Set<String> keys = labels.getOrDefault(type.key(), Map.of()).getOrDefault(e.getKey() + "=" + e.getValue(),
                        Set.of());
                if (indexed == null || keys.size() < indexed.size()) {
                    indexed = keys;
                }
            }
            List<ObjectNode> out = new ArrayList<>();
            if (indexed != null) {
                List<String> sorted = new ArrayList<>(indexed);
                java.util.Collections.sort(sorted);
                for (String k : sorted) {
                    ObjectNode o = range.get(k);
                    if (o != null && (startAfter == null || k.compareTo(startAfter) > 0) && filter.test(o)) {
                        out.add(o);
                        if (limit > 0 && out.size() > limit) {
                            break;
                        }
                    }
                }
            } else {
                Map<String, ObjectNode> tail = startAfter == null ? range : range.tailMap(startAfter, false);
                for (ObjectNode o : tail.values()) {
                    if (filter.test(o)) {
                        out.add(o);
                        if (limit > 0 && out.size() > limit) {
                            break;
                        }
                    }
                }
            }
            return new Snapshot(out, revision);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Stores a new object; its resourceVersion is assigned here. */
    ObjectNode create(ResourceType type, ObjectNode object) throws ApiException {
        String ns = object.path("metadata").path("namespace").asText(null);
        String name = object.path("metadata").path("name").asText();
        lock.writeLock().lock();
        try {
            String k = key(type.namespaced() ? ns : null, name);
            if (of(type).containsKey(k)) {
                throw ApiException.alreadyExists(type, name);
            }
            ObjectNode stored = withRevision(object);
            put(type, k, null, stored);
            emit(new Event(type, ADDED, stored, null, revision));
            return stored;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Replaces the object read at {@code basedOn} (its resourceVersion): a different stored version is a Conflict
     * the caller may retry. An object being deleted whose last finalizer goes is removed, and the final object
     * returned (as kube-apiserver answers that update).
     */
    ObjectNode update(ResourceType type, ObjectNode object, String basedOn) throws ApiException {
        String ns = object.path("metadata").path("namespace").asText(null);
        String name = object.path("metadata").path("name").asText();
        lock.writeLock().lock();
        try {
            String k = key(type.namespaced() ? ns : null, name);
            ObjectNode current = of(type).get(k);
            if (current == null) {
                throw ApiException.notFound(type, name);
            }
            if (basedOn != null && !basedOn.equals(current.path("metadata").path("resourceVersion").asText())) {
                throw ApiException.modified(type, name);
            }
            ObjectNode stored = withRevision(object);
            // a Namespace also waits for its spec.finalizers (the namespace controller empties it first)
            boolean finalized = stored.path("metadata").hasNonNull("deletionTimestamp")
                    && stored.path("metadata").path("finalizers").isEmpty()
                    && stored.path("spec").path("finalizers").isEmpty();
            if (finalized) {
                unput(type, k, current);
                emit(new Event(type, DELETED, stored, current, revision));
            } else {
                put(type, k, current, stored);
                emit(new Event(type, MODIFIED, stored, current, revision));
            }
            return stored;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the object read at {@code basedOn}; the DELETED event carries the deletion's resourceVersion. */
    ObjectNode delete(ResourceType type, String namespace, String name, String basedOn) throws ApiException {
        lock.writeLock().lock();
        try {
            String k = key(type.namespaced() ? namespace : null, name);
            ObjectNode current = of(type).get(k);
            if (current == null) {
                throw ApiException.notFound(type, name);
            }
            if (basedOn != null && !basedOn.equals(current.path("metadata").path("resourceVersion").asText())) {
                throw ApiException.modified(type, name);
            }
            ObjectNode last = withRevision(current);
            unput(type, k, current);
            emit(new Event(type, DELETED, last, current, revision));
            return last;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private ObjectNode withRevision(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        revision++;
        ((ObjectNode) copy.get("metadata")).put("resourceVersion", Long.toString(revision));
        return copy;
    }

    private void put(ResourceType type, String k, ObjectNode old, ObjectNode stored) {
        if (old != null) {
            unindex(type, k, old);
        }
        of(type).put(k, stored);
        Map<String, Set<String>> idx = labels.computeIfAbsent(type.key(), x -> new ConcurrentHashMap<>());
        stored.path("metadata").path("labels").properties().forEach(e -> idx.computeIfAbsent(e.getKey() + "="
                + e.getValue().asText(), x -> ConcurrentHashMap.newKeySet()).add(k));
        Ref ref = new Ref(type, stored.path("metadata").path("namespace").asText(null),
                stored.path("metadata").path("name").asText());
        String uid = stored.path("metadata").path("uid").asText(null);
        if (uid != null) {
            byUid.put(uid, ref);
        }
        for (JsonNode owner : stored.path("metadata").path("ownerReferences")) {
            byOwner.computeIfAbsent(owner.path("uid").asText(), x -> ConcurrentHashMap.newKeySet()).add(ref);
        }
    }

    private void unput(ResourceType type, String k, ObjectNode old) {
        unindex(type, k, old);
        of(type).remove(k);
    }

    private void unindex(ResourceType type, String k, ObjectNode old) {
        Map<String, Set<String>> idx = labels.get(type.key());
        if (idx != null) {
            old.path("metadata").path("labels").properties().forEach(e -> {
                Set<String> set = idx.get(e.getKey() + "=" + e.getValue().asText());
                if (set != null) {
                    set.remove(k);
                }
            });
        }
        Ref ref = new Ref(type, old.path("metadata").path("namespace").asText(null),
                old.path("metadata").path("name").asText());
        String uid = old.path("metadata").path("uid").asText(null);
        if (uid != null) {
            byUid.remove(uid, ref);
        }
        for (JsonNode owner : old.path("metadata").path("ownerReferences")) {
            Set<Ref> set = byOwner.get(owner.path("uid").asText());
            if (set != null) {
                set.remove(ref);
                if (set.isEmpty()) {
                    byOwner.remove(owner.path("uid").asText(), set);
                }
            }
        }
    }

    private void emit(Event e) {
        history.addLast(e);
        if (history.size() > historyLimit) {
            history.removeFirst();
        }
        Encoded encoded = new Encoded(e.object());
        lastCommit.set(encoded);
        for (Watch w : watches) {
            w.offer(e, encoded);
        }
        for (Consumer<Event> l : listeners) {
            l.accept(e);
        }
        published = e.rv();
    }

    /**
     * Opens a watch. {@code from} null: the current objects first, as ADDED events (kube's "get state and start
     * at most recent", also what resourceVersion "0" gives); otherwise the changes after that resourceVersion.
     */
    Watch watch(ResourceType type, String namespace, Predicate<JsonNode> filter, Long from) throws ApiException {
        Watch w = new Watch(type, type.namespaced() ? namespace : null, filter);
        lock.writeLock().lock();
        try {
            if (from == null) {
                ConcurrentSkipListMap<String, ObjectNode> all = of(type);
                Map<String, ObjectNode> range = w.namespace == null ? all
                        : all.subMap(w.namespace + "/", true, w.namespace + "/\uffff", true);
                for (ObjectNode o : range.values()) {
                    if (filter.test(o)) {
                        w.queue.add(new WatchItem(ADDED, new Encoded(o)));
                    }
                }
            } else if (from < revision) {
                long oldest = history.isEmpty() ? revision + 1 : history.peekFirst().rv();
                if (from < oldest - 1) {
                    throw ApiException.gone("too old resource version: " + from + " (" + (oldest - 1) + ")");
                }
                for (Event e : history) {
                    if (e.rv() > from) {
                        w.offer(e);
                    }
                }
            }
            watches.add(w);
            return w;
        } finally {
            lock.writeLock().unlock();
        }
    }

    void close(Watch w) {
        watches.remove(w);
    }

    int openWatches() {
        return watches.size();
    }
}
