package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Objects;
import me.loutres.juneau.api.JuneauConstants;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.plan.DesiredArp;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ARPAdvertisement as a {@link Dependent}: the one that exists is made to match the one the plan wants, writing
 * only the difference, each write through {@link KubeWriter} (the leadership term is checked first).
 */
final class ArpWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ArpWriter.class);

    /**
     * Address and network are immutable (replaced: delete and create); the node moves in place, so the uid stays:
     * {@code spec.nodeName} and the node label change together, so each node agent watches only its own
     * (docs/api-reference.md). The Service uid label is written by the same patch (an advertisement from before the
     * label gets it on its next reconcile).
     */
    static final Dependent.Match<ARPAdvertisement> MATCH = new Dependent.Match<>() {
        @Override
        public boolean sameImmutable(ARPAdvertisement actual, ARPAdvertisement desired) {
            ARPAdvertisementSpec is = actual.getSpec();
            return is == null || Objects.equals(is.getAddress(), desired.getSpec().getAddress())
                    && Objects.equals(is.getExternalNetwork(), desired.getSpec().getExternalNetwork());
        }

        @Override
        public boolean same(ARPAdvertisement actual, ARPAdvertisement desired) {
            String uid = serviceUid(desired);
            return actual.getSpec() != null
                    && Objects.equals(actual.getSpec().getNodeName(), desired.getSpec().getNodeName())
                    && (uid == null || uid.equals(serviceUid(actual)));
        }

        @Override
        public String patch(ARPAdvertisement actual, ARPAdvertisement desired) {
            String node = WriteBodies.json(desired.getSpec().getNodeName());
            String uid = serviceUid(desired);
            return "{\"metadata\":{\"resourceVersion\":" + WriteBodies.json(actual.getMetadata().getResourceVersion())
                    + ",\"labels\":{" + WriteBodies.json(JuneauConstants.LABEL_NODE) + ":" + node
                    + (uid == null ? "" : "," + WriteBodies.json(JuneauConstants.LABEL_SERVICE_UID) + ":"
                            + WriteBodies.json(uid))
                    + "}},\"spec\":{\"nodeName\":" + node + "}}";
        }
    };

    /** The Service uid label (docs/api-reference.md), or null: an advertisement without it is left without. */
    static String serviceUid(ARPAdvertisement a) {
        return a.getMetadata() == null || a.getMetadata().getLabels() == null ? null
                : a.getMetadata().getLabels().get(JuneauConstants.LABEL_SERVICE_UID);
    }

    private final Dependent<ARPAdvertisement> advertisements;

    ArpWriter(KubeWriter writer) {
        this.advertisements = new Dependent<>(writer, writer.kinds().arps(), MATCH);
    }

    /**
     * {@link DesiredArp.Present} is made to exist as wanted ({@link Dependent#verb}), {@link DesiredArp.Absent}
     * deletes what exists, {@link DesiredArp.Untouched} leaves it. A create or move the API server refuses
     * (admission or validation) comes back as a denial.
     */
    WriteDenial apply(Term term, ServiceKey key, ARPAdvertisement actual, DesiredArp desired) {
        ARPAdvertisement want;
        if (desired instanceof DesiredArp.Present p) {
            want = p.advertisement();
        } else if (desired instanceof DesiredArp.Absent) {
            want = null;
        } else {
            return null;
        }
        Dependent.Verb verb = advertisements.verb(actual, want);
        if (verb == Dependent.Verb.REPLACE) {
            LOG.info("{}: replacing ARPAdvertisement {} made for {} in {}", key, actual.getMetadata().getName(),
                    actual.getSpec().getAddress(), actual.getSpec().getExternalNetwork());
        }
        advertisements.remove(term, verb, actual); // a refused delete is an error, not a denial
        if (!verb.writes()) {
            return null;
        }
        String node = want.getSpec().getNodeName();
        boolean moves = actual != null && actual.getSpec() != null && !node.equals(actual.getSpec().getNodeName());
        String what = verb != Dependent.Verb.PATCH
                ? "create ARPAdvertisement \"" + want.getMetadata().getName() + "\" for node " + node
                : moves ? "move ARPAdvertisement \"" + actual.getMetadata().getName() + "\" to node " + node
                : "label ARPAdvertisement \"" + actual.getMetadata().getName() + "\" with its Service's uid";
        return denied(() -> advertisements.write(term, verb, actual, want), what);
    }

    /** Admission (403) or validation (422) refusals become a denial; every other failure propagates. */
    static WriteDenial denied(Runnable write, String what) {
        try {
            write.run();
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403 && e.getCode() != 422) {
                throw e;
            }
            String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                    : String.valueOf(e.getMessage());
            return new WriteDenial(what, message);
        }
    }
}
