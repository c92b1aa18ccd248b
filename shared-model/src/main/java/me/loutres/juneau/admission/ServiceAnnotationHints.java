package me.loutres.juneau.admission;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import me.loutres.juneau.api.JuneauConstants;

/**
 * Warnings (never denials) for the annotations of a managed Service that Juneau does not read although they look
 * meant for it (docs/admission.md, "Warnings"): a key under {@code juneau.loutres.me/} that is not one of the
 * Service's two (a typo silently gets another address, issue 41), named with the nearest real key; and MetalLB's
 * Service annotations, named with Juneau's equivalent. The webhook and {@code juneau validate} both answer through the
 * Service rules, so they print the same words. Pure.
 */
public final class ServiceAnnotationHints {
    /** The annotations Juneau reads on a Service. */
    public static final List<String> SERVICE_ANNOTATIONS = List.of(JuneauConstants.ANNOTATION_EXTERNAL_NETWORK,
            JuneauConstants.ANNOTATION_REQUESTED_IP);
    private static final String OURS = JuneauConstants.GROUP + "/";
    /** MetalLB's prefixes: {@code metallb.universe.tf/} and, since MetalLB 0.14, {@code metallb.io/}. */
    private static final List<String> METALLB = List.of("metallb.universe.tf/", "metallb.io/");

    /** MetalLB's Service annotations (the part after the prefix) and what to write for Juneau instead. */
    private static final Map<String, String> METALLB_EQUIVALENTS = Map.of(
            "loadBalancerIPs", "Juneau's is " + JuneauConstants.ANNOTATION_REQUESTED_IP
                    + " (one address, or an IPv4 and an IPv6 address separated by a comma)",
            "address-pool", "Juneau chooses among the pools of an ExternalNetwork: name it with "
                    + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK,
            "allow-shared-ip", "Juneau gives each Service its own VIP and has no equivalent; put the ports of the"
                    + " Services that must share an address in one Service",
            "ip-allocated-from-pool", "MetalLB writes it; Juneau records the pool in the ServiceLoadBalancer's"
                    + " status.addressPool (kubectl get slb)");

    private ServiceAnnotationHints() {
    }

    /** One warning per annotation of {@code keys} (the Service's annotation keys) that Juneau does not read. */
    public static List<String> of(Collection<String> keys) {
        List<String> out = new ArrayList<>();
        keys.stream().sorted().forEach(key -> {
            if (key.startsWith(OURS) && !SERVICE_ANNOTATIONS.contains(key)) {
                out.add(unknownOfOurs(key));
            }
            for (String prefix : METALLB) {
                if (key.startsWith(prefix)) {
                    String equivalent = METALLB_EQUIVALENTS.get(key.substring(prefix.length()));
                    out.add("annotation " + key + " is MetalLB's and Juneau does not read it; " + (equivalent != null
                            ? equivalent : "Juneau reads " + String.join(" and ", SERVICE_ANNOTATIONS)));
                }
            }
        });
        return out;
    }

    private static String unknownOfOurs(String key) {
        if (key.equals(JuneauConstants.ANNOTATION_DEFAULT_NETWORK)) {
            return "annotation " + key + " has no effect on a Service: it marks the default ExternalNetwork and belongs"
                    + " on one; on a Service, name the network with " + JuneauConstants.ANNOTATION_EXTERNAL_NETWORK;
        }
        String nearest = SERVICE_ANNOTATIONS.stream().min(Comparator.comparingInt((String k) -> distance(key, k))
                .thenComparing(Comparator.naturalOrder())).orElseThrow();
        return "annotation " + key + " is not one Juneau reads, so it has no effect; did you mean " + nearest
                + "? Juneau reads " + String.join(" and ", SERVICE_ANNOTATIONS) + " on a Service";
    }

    /** Levenshtein's edit distance: insertions, deletions and substitutions of one character each cost 1. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
