package me.loutres.juneau.controller.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Objects;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisement;
import me.loutres.juneau.api.v1alpha1.ARPAdvertisementSpec;
import me.loutres.juneau.controller.ServiceKey;
import me.loutres.juneau.plan.DesiredArp;
import me.loutres.juneau.plan.WriteDenial;
import me.loutres.juneau.runtime.Term;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ARPAdvertisement as a dependent resource: makes the one that exists match the one the plan wants, writing
 * only the difference, each write through {@link KubeWriter} (the leadership term is checked first).
 */
final class ArpWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ArpWriter.class);

    private final KubeWriter writer;

    ArpWriter(KubeWriter writer) {
        this.writer = writer;
    }

    /**
     * None there → create it; on another node → move it in place (only {@code spec.nodeName} and its label change,
     * the uid stays); another address or network (both immutable) → delete it and create the new one; the same →
     * nothing. {@link DesiredArp.Absent} deletes what exists, {@link DesiredArp.Untouched} leaves it. A write the
     * API server refuses (admission or validation) comes back as a denial.
     */
    WriteDenial apply(Term term, ServiceKey key, ARPAdvertisement actual, DesiredArp desired) {
        if (desired instanceof DesiredArp.Absent) {
            if (actual != null) {
                writer.deleteArpAdvertisement(term, actual);
            }
            return null;
        }
        if (!(desired instanceof DesiredArp.Present p)) {
            return null;
        }
        ARPAdvertisement want = p.advertisement();
        String create = "create ARPAdvertisement \"" + want.getMetadata().getName() + "\" for node " + p.node();
        if (actual == null) {
            return denied(() -> writer.createArpAdvertisement(term, want), create);
        }
        ARPAdvertisementSpec is = actual.getSpec();
        if (is != null && (!Objects.equals(is.getAddress(), want.getSpec().getAddress())
                || !Objects.equals(is.getExternalNetwork(), want.getSpec().getExternalNetwork()))) {
            LOG.info("{}: replacing ARPAdvertisement {} made for {} in {}", key, actual.getMetadata().getName(),
                    is.getAddress(), is.getExternalNetwork());
            writer.deleteArpAdvertisement(term, actual);
            return denied(() -> writer.createArpAdvertisement(term, want), create);
        }
        if (is == null || !Objects.equals(is.getNodeName(), p.node())) {
            return denied(() -> writer.moveArpAdvertisement(term, actual, p.node()),
                    "move ARPAdvertisement \"" + actual.getMetadata().getName() + "\" to node " + p.node());
        }
        return null;
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
