package me.loutres.juneau.view;

import java.util.ArrayList;
import java.util.List;
import me.loutres.juneau.ip.InvalidAddressException;
import me.loutres.juneau.ip.IpAddress;
import me.loutres.juneau.ip.IpFamily;
import me.loutres.juneau.ip.IpRange;

/**
 * An IPv6 range the cluster says it uses (a ServiceCIDR's or a Node's podCIDR), the counterpart of {@link LearntRange}:
 * {@code source} names the object and the CIDR as a denial says it ({@code ServiceCIDR kubernetes fd00:10:96::/112}).
 */
public record IpLearntRange(String source, IpRange range) {

    static List<WideRangeIndex.Hit<IpLearntRange>> hits(String owner, List<String> cidrs) {
        List<WideRangeIndex.Hit<IpLearntRange>> out = new ArrayList<>();
        for (String cidr : cidrs) {
            if (cidr == null || !cidr.contains(":")) {
                continue; // IPv4: LearntRange's
            }
            try {
                String t = cidr.trim();
                int slash = t.indexOf('/');
                IpAddress base = IpAddress.parse(slash < 0 ? t : t.substring(0, slash));
                int prefix = slash < 0 ? 128 : Integer.parseInt(t.substring(slash + 1));
                if (base.family() != IpFamily.IPV6 || prefix < 0 || prefix > 128) {
                    continue;
                }
                IpRange range = new IpRange(base.masked(prefix), base.lastOfPrefix(prefix));
                out.add(new WideRangeIndex.Hit<>(range, new IpLearntRange(owner + " " + base.masked(prefix) + "/" + prefix, range)));
            } catch (InvalidAddressException | NumberFormatException e) {
                // the API server validates these fields; an unreadable one reserves nothing
            }
        }
        return out;
    }
}
