package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.admission.AdmissionSettings;
import me.loutres.juneau.ip.AddressRange;

/**
 * A range the cluster says it uses, learnt from an object: a ServiceCIDR's {@code spec.cidrs} entry or a Node's
 * podCIDR. {@code source} names the object and the CIDR as a denial says it: {@code ServiceCIDR kubernetes
 * 10.96.0.0/12}, {@code Node worker-1 podCIDR 10.244.1.0/24} (docs/admission.md).
 */
public record LearntRange(String source, AddressRange range) {

    static List<RangeIndex.Hit<LearntRange>> hits(String owner, List<String> cidrs) {
        List<RangeIndex.Hit<LearntRange>> out = new ArrayList<>();
        for (String cidr : cidrs) {
            if (cidr == null || cidr.contains(":")) {
                continue; // IPv6: no IPv4 VIP can fall in it
            }
            try {
                AdmissionSettings.ReservedCidr parsed = AdmissionSettings.ReservedCidr.parse(cidr);
                out.add(new RangeIndex.Hit<>(parsed.range(), new LearntRange(owner + " " + parsed.text(), parsed.range())));
            } catch (IllegalArgumentException e) {
                // the API server validates these fields; an unreadable one reserves nothing
            }
        }
        return out;
    }
}
