package me.loutres.juneau.agent.kube;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the node really does: ARPAdvertisement status through the status subresource (at the resourceVersion
 * it was read at, so a status never lands on an advertisement that moved meanwhile) and Events on the Service.
 */
public final class Reporter {
    private static final Logger LOG = LoggerFactory.getLogger(Reporter.class);

    private final KubernetesClient client;
    private final String node;
    private final Clock clock;
    private final WriteRefusals refusals;

    public Reporter(KubernetesClient client, String node) {
        this(client, node, Clock.systemUTC());
    }

    /** @param clock the time of Events and of condition transitions */
    public Reporter(KubernetesClient client, String node, Clock clock) {
        this(client, node, clock, new WriteRefusals(new me.loutres.juneau.agent.ops.AgentMetrics()));
    }

    /** @param refusals where the writes the API server refuses are said and counted */
    public Reporter(KubernetesClient client, String node, Clock clock, WriteRefusals refusals) {
        this.client = client;
        this.node = node;
        this.clock = clock;
        this.refusals = refusals;
    }

    /** The agent's refused writes (the BGPSession writer records its own there too). */
    public WriteRefusals refusals() {
        return refusals;
    }

    /** The status this node wants on an advertisement it owns. */
    public record Wanted(String interfaceName, String mac, String announcedAt, String reason, String message) {
        public boolean announced() {
            return JuneauConstants.REASON_ANNOUNCED.equals(reason);
        }
    }

    /**
     * True when {@code current} already says what {@code wanted} says (no write needed). A restarted agent writes a
     * new {@code announcedAt}: the node did not answer while it was down.
     */
    public boolean upToDate(ARPAdvertisement current, Wanted wanted) {
        ARPAdvertisementStatus s = current.getStatus();
        if (s == null || !node.equals(s.getNode())
                || !Objects.equals(s.getObservedGeneration(), current.getMetadata().getGeneration())
                || !Objects.equals(s.getInterfaceName(), wanted.interfaceName())
                || !Objects.equals(s.getMacAddress(), wanted.mac())
                || !Objects.equals(s.getAnnouncedAt(), wanted.announcedAt())) {
            return false;
        }
        Condition c = s.getConditions() == null ? null : s.getConditions().stream()
                .filter(x -> JuneauConstants.CONDITION_ANNOUNCED.equals(x.getType())).findFirst().orElse(null);
        return c != null && (wanted.announced() ? "True" : "False").equals(c.getStatus())
                && wanted.reason().equals(c.getReason()) && Objects.equals(wanted.message(), c.getMessage());
    }

    /**
     * Writes the status.
     *
     * @return false when the write failed (retried by the caller with backoff)
     */
    public boolean writeStatus(ARPAdvertisement current, Wanted wanted) {
        ARPAdvertisement copy = client.getKubernetesSerialization().clone(current);
        ARPAdvertisementStatus s = new ARPAdvertisementStatus();
        s.setNode(node);
        s.setInterfaceName(wanted.interfaceName());
        s.setMacAddress(wanted.mac());
        s.setAnnouncedAt(wanted.announcedAt());
        s.setObservedGeneration(current.getMetadata().getGeneration());
        String status = wanted.announced() ? "True" : "False";
        Condition previous = current.getStatus() == null || current.getStatus().getConditions() == null ? null
                : current.getStatus().getConditions().stream()
                        .filter(x -> JuneauConstants.CONDITION_ANNOUNCED.equals(x.getType())).findFirst().orElse(null);
        String since = previous != null && status.equals(previous.getStatus()) && previous.getLastTransitionTime() != null
                && current.getStatus() != null && node.equals(current.getStatus().getNode())
                ? previous.getLastTransitionTime() : clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        s.setConditions(List.of(new ConditionBuilder().withType(JuneauConstants.CONDITION_ANNOUNCED).withStatus(status)
                .withReason(wanted.reason()).withMessage(wanted.message())
                .withObservedGeneration(current.getMetadata().getGeneration()).withLastTransitionTime(since).build()));
        copy.setStatus(s);
        try {
            client.resources(ARPAdvertisement.class).resource(copy).updateStatus();
            refusals.succeeded(JuneauConstants.KIND_ARP_ADVERTISEMENT);
            return true;
        } catch (KubernetesClientException e) {
            refusals.refused(JuneauConstants.KIND_ARP_ADVERTISEMENT, e);
            LOG.debug("status of ARPAdvertisement {} not written: {}", current.getMetadata().getName(), e.getMessage());
            return false;
        }
    }

    /** Records an Event on the Service; failures are logged only (an Event is a courtesy, never a blocker). */
    public void event(String namespace, String service, String type, String reason, String message) {
        event(namespace, service, null, type, reason, message);
    }

    /**
     * Records an Event on the Service whose metadata.uid is {@code uid} ({@code kubectl describe service} lists it);
     * a null or empty uid is left out of {@code involvedObject}, as for a Service known by name only.
     */
    public void event(String namespace, String service, String uid, String type, String reason, String message) {
        record(namespace, service, new ObjectReferenceBuilder().withApiVersion("v1").withKind("Service")
                .withNamespace(namespace).withName(service).withUid(uid == null || uid.isEmpty() ? null : uid)
                .build(), type, reason, message);
    }

    /**
     * Records an Event on an ARPAdvertisement (cluster-scoped, so the Event lives in {@code default}, where
     * {@code kubectl describe arpadvertisement} finds it).
     */
    public void eventOnAdvertisement(Involved advertisement, String type, String reason, String message) {
        eventOnClusterObject(JuneauConstants.KIND_ARP_ADVERTISEMENT, advertisement, type, reason, message);
    }

    /** Records an Event on a cluster-scoped Juneau object (it lives in {@code default}, as for advertisements). */
    public void eventOnClusterObject(String kind, Involved object, String type, String reason, String message) {
        record("default", object.name(), new ObjectReferenceBuilder().withApiVersion(JuneauConstants.API_VERSION)
                .withKind(kind).withName(object.name()).withUid(object.uid())
                .withResourceVersion(object.resourceVersion()).build(), type, reason, message);
    }

    /**
     * The object an Event is about. {@code kubectl describe} lists only the Events whose {@code involvedObject.uid}
     * is the described object's: an Event without the uid exists but is shown nowhere but {@code kubectl get events}.
     *
     * @param uid             metadata.uid; null only when unknown (then describe will not show the Event)
     * @param resourceVersion the version the Event speaks of; null when unknown
     */
    public record Involved(String name, String uid, String resourceVersion) {
    }

    private void record(String namespace, String about, ObjectReference involved, String type, String reason,
            String message) {
        Instant now = clock.instant();
        Event event = new EventBuilder()
                .withNewMetadata().withNamespace(namespace)
                .withName(about + "." + Long.toHexString(now.toEpochMilli())
                        + UUID.randomUUID().toString().substring(0, 4))
                .endMetadata()
                .withInvolvedObject(involved)
                .withType(type).withReason(reason).withMessage(message)
                .withNewSource().withComponent("juneau-agent").withHost(node).endSource()
                .withReportingComponent("juneau.loutres.me/agent").withReportingInstance(node)
                .withFirstTimestamp(now.toString()).withLastTimestamp(now.toString()).withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
            refusals.succeeded("Event");
        } catch (KubernetesClientException e) {
            refusals.refused("Event", e);
            LOG.debug("event {} on {} {} not recorded: {}", reason, involved.getKind(), about, e.getMessage());
        }
    }
}
