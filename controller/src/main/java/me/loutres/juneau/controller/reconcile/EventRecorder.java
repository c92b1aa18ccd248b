package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import me.loutres.juneau.runtime.LostLeadershipException;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events on Services ({@code kubectl describe service} shows them). The event name is derived from the Service
 * uid, reason and message, so recording the same thing twice — a retry, a restart, a new leader — cannot make a
 * second event: the API server answers 409 and the existing event's lastTimestamp moves instead (its count
 * stays: reading it would need one more permission). Failing to record an event never fails a reconcile.
 */
public final class EventRecorder {
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    static final String COMPONENT = "juneau-controller";

    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

    private final KubeWriter writer;
    private final String instance;
    private final Clock clock;

    public EventRecorder(KubeWriter writer, String instance, Clock clock) {
        this.writer = writer;
        this.instance = instance;
        this.clock = clock;
    }

    public void record(Term term, Service svc, String type, String reason, String message) {
        String ns = svc.getMetadata().getNamespace();
        record(term, ns, new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder().withApiVersion("v1")
                .withKind("Service").withNamespace(ns).withName(svc.getMetadata().getName())
                .withUid(svc.getMetadata().getUid()).build(), type, reason, message);
    }

    /**
     * Records the event unless one of {@code messages} was recorded already (tried in order, by touching the event of
     * that name: the controller may patch events but not read them); when none was, records the first.
     */
    public void recordUnlessRecorded(Term term, Service svc, String type, String reason,
            java.util.List<String> messages) {
        if (messages.isEmpty()) {
            return;
        }
        String ns = svc.getMetadata().getNamespace();
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        try {
            for (String message : messages) {
                try {
                    repeat(term, ns, eventName(svc.getMetadata().getName(), svc.getMetadata().getUid(), reason,
                            message), now);
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404) {
                        LOG.debug("could not look for event {} on Service {}/{}: {}", reason, ns,
                                svc.getMetadata().getName(), e.getMessage());
                        return;
                    }
                }
            }
        } catch (LostLeadershipException e) {
            return;
        }
        record(term, svc, type, reason, messages.get(0));
    }

    /**
     * An event about a cluster-scoped object (AddressPool, ExternalNetwork, ARPAdvertisement): the event lives in
     * {@code default}, as kube does it.
     */
    public void recordClusterScoped(Term term, io.fabric8.kubernetes.api.model.HasMetadata object, String type,
            String reason, String message) {
        record(term, "default", new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
                .withApiVersion(object.getApiVersion()).withKind(object.getKind())
                .withName(object.getMetadata().getName()).withUid(object.getMetadata().getUid()).build(), type,
                reason, message);
    }

    private void record(Term term, String ns, io.fabric8.kubernetes.api.model.ObjectReference involved, String type,
            String reason, String message) {
        String name = eventName(involved.getName(), involved.getUid(), reason, message);
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        Event event = new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withInvolvedObject(involved)
                .withType(type).withReason(reason).withMessage(message)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT).withReportingInstance(instance)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .build();
        try {
            writer.create(term, writer.kinds().events(), event);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                try {
                    repeat(term, ns, name, now);
                } catch (KubernetesClientException again) {
                    LOG.debug("could not update event {}/{}: {}", ns, name, again.getMessage());
                }
            } else {
                LOG.warn("could not record event {} on {} {}: {}", reason, involved.getKind(), involved.getName(),
                        e.getMessage());
            }
        } catch (LostLeadershipException e) {
            // the next leader records what is still true
        }
    }

    /**
     * The same event was recorded before (same name): only its lastTimestamp moves, so {@code kubectl describe}
     * shows it happened again. Its count is left alone: reading it would need one more permission for little.
     */
    private void repeat(Term term, String namespace, String name, String now) {
        Event target = new EventBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
                .build();
        String patch = "{\"lastTimestamp\":" + WriteBodies.json(now) + "}";
        writer.mergePatch(term, writer.kinds().events(), target, patch);
    }

    /** {@code <service>.<16 hex digits>}: stable for one (Service uid, reason, message). */
    static String eventName(String service, String uid, String reason, String message) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (uid + "\0" + reason + "\0" + message).getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001b3L;
        }
        return service + "." + String.format("%016x", h);
    }
}
